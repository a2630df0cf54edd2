import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isClientError } from '../index'
import { startLiveServer } from '../../test/live-server'
import type { LiveServer } from '../../test/live-server'
import { createClient } from './index'
import type { NodeClient } from './index'

let server: LiveServer
let client: NodeClient
let dir: string
const big = randomBytes(3 * 1024 * 1024 + 17)

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
  dir = await mkdtemp(join(tmpdir(), 'svcdb-download-'))
  await client.files.upload('/dl/big.bin', big, { contentType: 'application/x-test' })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** A `fetch` whose answers of file reads break after `limit` bytes, as a cut connection does. */
function cuttingFetch(limit: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!new URL(url).pathname.startsWith('/files/') || response.body === null) return response
    let seen = 0
    const reader = response.body.getReader()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read()
        if (done) return controller.close()
        seen += value.length
        if (seen > limit) return controller.error(new TypeError('terminated'))
        controller.enqueue(value)
      },
    })
    return new Response(body, { status: response.status, headers: response.headers })
  }
}

describe('files.download (Node)', () => {
  it('streams a multi-chunk file to disk and answers its size, hash and type', async () => {
    const target = join(dir, 'big.bin')
    const result = await client.files.download('/dl/big.bin', target)
    expect(result).toMatchObject({ localFile: target, size: big.length })
    expect(result.contentType).toBe('application/x-test')
    expect(result.hash).toBe((await client.files.stat('/dl/big.bin')).hash)
    expect((await readFile(target)).equals(big)).toBe(true)
    expect(await readdir(dir)).toEqual(['big.bin'])
  })

  it('replaces an existing file whole, and reads the version asked for', async () => {
    const target = join(dir, 'notes.txt')
    await writeFile(target, 'an older local copy that is longer')
    await client.files.write('/dl/notes.txt', 'v1')
    await client.versions.snapshots.create('dl-v1')
    await client.files.write('/dl/notes.txt', 'v2')
    await client.files.download('/dl/notes.txt', target)
    expect(await readFile(target, 'utf8')).toBe('v2')
    await client.files.download('/dl/notes.txt', target, { snapshot: 'dl-v1' })
    expect(await readFile(target, 'utf8')).toBe('v1')
  })

  it('leaves no file and no temporary file for a missing remote file', async () => {
    const sub = await mkdtemp(join(dir, 'missing-'))
    const err = await client.files
      .download('/dl/none.bin', join(sub, 'none.bin'))
      .catch((e: unknown) => e)
    expect(isClientError(err, 'NOT_FOUND')).toBe(true)
    expect(await readdir(sub)).toEqual([])
  })

  it('keeps the old local file and no half file when the connection is cut', async () => {
    const sub = await mkdtemp(join(dir, 'cut-'))
    const target = join(sub, 'big.bin')
    await writeFile(target, 'previous')
    const cut = createClient({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: cuttingFetch(1024 * 1024),
    })
    const err = await cut.files.download('/dl/big.bin', target).catch((e: unknown) => e)
    expect(isClientError(err, 'NETWORK_ERROR')).toBe(true)
    expect(await readdir(sub)).toEqual(['big.bin'])
    expect(await readFile(target, 'utf8')).toBe('previous')
  })

  it('fails ABORTED and leaves nothing when the signal fires mid-download', async () => {
    const sub = await mkdtemp(join(dir, 'abort-'))
    const controller = new AbortController()
    let reads = 0
    // Aborts as soon as the first bytes of the file arrive.
    const aborting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (response.body === null || init?.method !== 'GET') return response
      const reader = response.body.getReader()
      const body = new ReadableStream<Uint8Array>({
        async pull(controller_) {
          if (reads++ === 1) controller.abort()
          const { done, value } = await reader.read()
          if (done) controller_.close()
          else controller_.enqueue(value)
        },
        cancel: (reason) => reader.cancel(reason),
      })
      return new Response(body, { status: response.status, headers: response.headers })
    }
    const c = createClient({ baseUrl: server.url, apiKey: server.rootApiKey, fetch: aborting })
    const err = await c.files
      .download('/dl/big.bin', join(sub, 'big.bin'), { signal: controller.signal })
      .catch((e: unknown) => e)
    expect(isClientError(err, 'ABORTED')).toBe(true)
    expect(await readdir(sub)).toEqual([])
  })

  it('refuses a directory with BAD_REQUEST and writes nothing', async () => {
    const sub = await mkdtemp(join(dir, 'directory-'))
    const err = await client.files.download('/dl', join(sub, 'dl')).catch((e: unknown) => e)
    expect(isClientError(err, 'BAD_REQUEST')).toBe(true)
    expect((err as Error).message).toBe('/dl is a directory, not a file to download')
    expect(await readdir(sub)).toEqual([])
  })

  it('names the local file when its directory does not exist', async () => {
    const target = join(dir, 'no-such-dir', 'x.bin')
    await expect(client.files.download('/dl/notes.txt', target)).rejects.toMatchObject({
      code: 'ENOENT',
      path: target,
      message: `cannot write ${target}: ENOENT`,
    })
  })
})
