import { createServer } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isEngineError } from '@svcdb/engine'
import type { BlobStore } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { createS3BlobStore } from './s3-blob-store'
import type { S3BlobStoreOptions } from './s3-blob-store-options'

/** One request as the loopback server saw it. */
interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

type Reply = (req: Seen, res: ServerResponse) => void

const SECRET = 'unit-test-secret-value'
const servers: Server[] = []
const stores: BlobStore[] = []

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()))
  await Promise.all(
    servers.splice(0).map((s) => new Promise((done) => s.close(done).closeAllConnections())),
  )
})

/** A loopback HTTP server answering like S3 would; records every request it gets. */
async function s3Like(reply: Reply): Promise<{ endpoint: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts),
      }
      seen.push(request)
      reply(request, res)
    })
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return { endpoint: `http://127.0.0.1:${port}`, seen }
}

function open(endpoint: string, options: Partial<S3BlobStoreOptions> = {}): BlobStore {
  const store = createS3BlobStore({
    bucket: 'unit-bucket',
    endpoint,
    credentials: { accessKeyId: 'UNITKEY', secretAccessKey: SECRET },
    maxAttempts: 1,
    ...options,
  })
  stores.push(store)
  return store
}

function xmlError(res: ServerResponse, status: number, code: string, message = ''): void {
  res.writeHead(status, { 'content-type': 'application/xml' })
  res.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`)
}

async function failure(
  promise: Promise<unknown>,
): Promise<Error & { code: string; cause?: unknown }> {
  try {
    await promise
  } catch (err) {
    expect(isEngineError(err)).toBe(true)
    return err as Error & { code: string; cause?: unknown }
  }
  throw new Error('expected a failure')
}

describe('createS3BlobStore', () => {
  it('puts with path-style URL, explicit Content-Length and no flexible checksum', async () => {
    const { endpoint, seen } = await s3Like((_req, res) => res.writeHead(200).end())
    await open(endpoint, { prefix: 'svcdb' }).put('chunks/ab/abcd', new Uint8Array([1, 2, 3]))
    expect(seen).toHaveLength(1)
    const [put] = seen
    expect(put?.method).toBe('PUT')
    expect(put?.url.split('?')[0]).toBe('/unit-bucket/svcdb/chunks/ab/abcd')
    expect(put?.headers['content-length']).toBe('3')
    expect(Object.keys(put?.headers ?? {}).filter((h) => h.startsWith('x-amz-checksum'))).toEqual(
      [],
    )
    expect([...(put?.body ?? [])]).toEqual([1, 2, 3])
  })

  it('gets a range with an inclusive Range header', async () => {
    const { endpoint, seen } = await s3Like((_req, res) => {
      res.writeHead(206, { 'content-range': 'bytes 2-4/10', 'content-length': '3' })
      res.end(Buffer.from([2, 3, 4]))
    })
    const bytes = await open(endpoint).get('k', { start: 2, end: 5 })
    expect(seen[0]?.headers.range).toBe('bytes=2-4')
    expect([...(bytes ?? [])]).toEqual([2, 3, 4])
  })

  it('cuts the whole object when the server ignores Range', async () => {
    const { endpoint } = await s3Like((_req, res) => {
      res.writeHead(200, { 'content-length': '6' })
      res.end(Buffer.from([0, 1, 2, 3, 4, 5]))
    })
    const store = open(endpoint)
    expect([...((await store.get('k', { start: 1, end: 3 })) ?? [])]).toEqual([1, 2])
    expect([...((await store.get('k', { start: 4, end: 99 })) ?? [])]).toEqual([4, 5])
    expect((await store.get('k', { start: 2, end: 2 }))?.length).toBe(0)
  })

  it('gives empty bytes for a range past the end (416) and undefined for a missing key', async () => {
    const { endpoint } = await s3Like((req, res) => {
      if (req.url.split('?')[0] === '/unit-bucket/here') xmlError(res, 416, 'InvalidRange')
      else xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.')
    })
    const store = open(endpoint)
    expect(await store.get('here', { start: 100, end: 200 })).toEqual(new Uint8Array(0))
    expect(await store.get('gone')).toBeUndefined()
    expect(await store.get('gone', { start: 0, end: 1 })).toBeUndefined()
  })

  it('wraps a missing bucket as IO_ERROR naming code, status and object', async () => {
    const { endpoint } = await s3Like((_req, res) => xmlError(res, 404, 'NoSuchBucket'))
    const err = await failure(open(endpoint).get('chunks/x'))
    expect(err.code).toBe('IO_ERROR')
    expect(err.message).toContain('GetObject of s3://unit-bucket/chunks/x failed: NoSuchBucket')
    expect(err.message).toContain('HTTP 404')
    expect((err.cause as Error).name).toBe('NoSuchBucket')
  })

  it('names an access problem and never shows the secret', async () => {
    const { endpoint } = await s3Like((_req, res) => xmlError(res, 403, 'SignatureDoesNotMatch'))
    const err = await failure(open(endpoint).put('k', new Uint8Array(1)))
    expect(err.code).toBe('IO_ERROR')
    expect(err.message).toMatch(/SignatureDoesNotMatch \(HTTP 403\): access refused/)
    expect(JSON.stringify(err, Object.getOwnPropertyNames(err))).not.toContain(SECRET)
  })

  it('wraps a refused connection as IO_ERROR with the network code', async () => {
    const { endpoint } = await s3Like((_req, res) => res.end())
    const server = servers.pop()
    await new Promise((done) => server?.close(done))
    const err = await failure(open(endpoint).put('k', new Uint8Array(1)))
    expect(err.code).toBe('IO_ERROR')
    expect(err.message).toContain('PutObject of s3://unit-bucket/k failed: ECONNREFUSED')
  })

  it('retries a server error up to maxAttempts', async () => {
    let calls = 0
    const { endpoint } = await s3Like((_req, res) => {
      calls += 1
      if (calls < 3) xmlError(res, 503, 'SlowDown')
      else res.writeHead(200).end()
    })
    await open(endpoint, { maxAttempts: 3 }).put('k', new Uint8Array(1))
    expect(calls).toBe(3)
  })

  it('lists every page in order, without the prefix', async () => {
    const { endpoint, seen } = await s3Like((req, res) => {
      const url = new URL(req.url, 'http://x')
      const first = url.searchParams.get('continuation-token') === null
      const entry = (key: string, size: number) =>
        `<Contents><Key>p/${key}</Key><Size>${size}</Size><LastModified>2026-01-02T03:04:05.000Z</LastModified></Contents>`
      res.writeHead(200, { 'content-type': 'application/xml' })
      res.end(
        `<?xml version="1.0"?><ListBucketResult><Name>unit-bucket</Name>` +
          (first
            ? `<IsTruncated>true</IsTruncated><NextContinuationToken>t1</NextContinuationToken>${entry('a/1', 3)}${entry('a/2', 4)}`
            : `<IsTruncated>false</IsTruncated>${entry('a/3', 5)}`) +
          `</ListBucketResult>`,
      )
    })
    const listed = []
    for await (const info of open(endpoint, { prefix: 'p' }).list('a/')) listed.push(info)
    const modified = Date.parse('2026-01-02T03:04:05.000Z')
    expect(listed).toEqual([
      { key: 'a/1', size: 3, modified },
      { key: 'a/2', size: 4, modified },
      { key: 'a/3', size: 5, modified },
    ])
    expect(seen).toHaveLength(2)
    const params = new URL(seen[0]?.url ?? '', 'http://x').searchParams
    expect(params.get('prefix')).toBe('p/a/')
    expect(params.get('max-keys')).toBe('1000')
    expect(new URL(seen[1]?.url ?? '', 'http://x').searchParams.get('continuation-token')).toBe(
      't1',
    )
  })

  it('deletes in batches of 1000 and reports the keys that failed', async () => {
    const { endpoint, seen } = await s3Like((req, res) => {
      const keys = [...req.body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1])
      const failed = keys.filter((k) => k?.endsWith('/7') || k?.endsWith('/1500'))
      res.writeHead(200, { 'content-type': 'application/xml' })
      res.end(
        `<?xml version="1.0"?><DeleteResult>${failed
          .map(
            (k) => `<Error><Key>${k}</Key><Code>AccessDenied</Code><Message>no</Message></Error>`,
          )
          .join('')}</DeleteResult>`,
      )
    })
    const keys = Array.from({ length: 2500 }, (_, i) => `x/${i}`)
    const err = await failure(open(endpoint).delete(keys))
    expect(err.code).toBe('IO_ERROR')
    expect(err.message).toContain('failed for 1 of 1000 keys: x/7 (AccessDenied: no)')
    // The first batch failed, so the later batches were not sent.
    expect(seen).toHaveLength(1)
    expect(seen[0]?.url).toMatch(/^\/unit-bucket\/?\?delete/)

    seen.length = 0
    await open(endpoint)
      .delete(keys.filter((k) => !k.endsWith('/7') && !k.endsWith('/1500')).concat('x/1500'))
      .then(() => expect.fail('x/1500 should fail'))
      .catch((e: Error) => expect(e.message).toContain('x/1500 (AccessDenied'))
    expect(seen.map((r) => (r.body.toString().match(/<Key>/g) ?? []).length)).toEqual([
      1000, 1000, 499,
    ])
  })

  it('sends nothing for an empty delete and ignores keys already gone', async () => {
    const { endpoint, seen } = await s3Like((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' })
      res.end('<DeleteResult><Error><Key>a</Key><Code>NoSuchKey</Code></Error></DeleteResult>')
    })
    const store = open(endpoint)
    await store.delete([])
    expect(seen).toHaveLength(0)
    await store.delete(['a', 'a'])
    expect(seen).toHaveLength(1)
    expect((seen[0]?.body.toString().match(/<Key>/g) ?? []).length).toBe(1)
  })

  it('rejects bad keys (INVALID_INPUT) and ranges (RangeError) before any request', async () => {
    const { endpoint, seen } = await s3Like((_req, res) => res.end())
    const store = open(endpoint, { prefix: 'p' })
    expect((await failure(store.put('', new Uint8Array(1)))).code).toBe('INVALID_INPUT')
    expect((await failure(store.get('x'.repeat(1023)))).message).toMatch(/1024 bytes/)
    await expect(store.get('k', { start: 3, end: 2 })).rejects.toThrow(RangeError)
    await expect(store.get('k', { start: -1, end: 2 })).rejects.toThrow(RangeError)
    expect((await failure(store.put('k', 'text' as never))).code).toBe('INVALID_INPUT')
    expect(seen).toHaveLength(0)
  })

  it('waits for running requests on close, then fails every call with CLOSED', async () => {
    let held: ServerResponse | undefined
    const { endpoint } = await s3Like((_req, res) => {
      held = res
    })
    const store = open(endpoint)
    const put = store.put('k', new Uint8Array(1))
    await expect.poll(() => held).toBeDefined()
    let closed = false
    const closing = store.close().then(() => (closed = true))
    await new Promise((tick) => setTimeout(tick, 20))
    // close() is still waiting for the put the server holds.
    expect(closed).toBe(false)
    held?.writeHead(200).end()
    await put
    await closing
    expect((await failure(store.put('k', new Uint8Array(1)))).code).toBe('CLOSED')
    expect((await failure(store.get('k'))).code).toBe('CLOSED')
    expect((await failure(store.delete(['k']))).code).toBe('CLOSED')
    const listing = store.list('')[Symbol.asyncIterator]()
    expect((await failure(listing.next())).code).toBe('CLOSED')
    await store.close()
  })
})
