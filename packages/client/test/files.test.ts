import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, isClientError } from '../src'
import type { Client } from '../src'
import { recordingFetch, startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let client: Client

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

describe('files', () => {
  it('writes from every kind of source and reads back, whole, ranged and conditionally', async () => {
    const written = await client.files.write('/docs/a.txt', 'hello world', {
      contentType: 'text/plain',
    })
    expect(written).toMatchObject({ path: '/docs/a.txt', size: 11, content_type: 'text/plain' })
    await client.files.write('/docs/b.bin', new Uint8Array([1, 2, 3]))
    await client.files.write('/docs/c.txt', new Blob(['from a blob']))
    await client.files.write(
      '/docs/d.txt',
      new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode('from a '))
          c.enqueue(new TextEncoder().encode('web stream'))
          c.close()
        },
      }),
    )
    await client.files.write('/docs/e.txt', Readable.from([Buffer.from('from node')]))

    expect(await client.files.readText('/docs/a.txt')).toBe('hello world')
    expect([...(await client.files.readBytes('/docs/b.bin'))]).toEqual([1, 2, 3])
    expect(await client.files.readText('/docs/c.txt')).toBe('from a blob')
    expect(await client.files.readText('/docs/d.txt')).toBe('from a web stream')
    expect(await client.files.readText('/docs/e.txt')).toBe('from node')

    const part = await client.files.read('/docs/a.txt', { range: { start: 6 } })
    expect(part?.contentRange).toBe('bytes 6-10/11')
    expect(part?.totalSize).toBe(11)
    expect(await text(part?.body as ReadableStream<Uint8Array>)).toBe('world')
    expect(await client.files.read('/docs/a.txt', { ifNoneMatch: written.hash })).toBeUndefined()

    const stat = await client.files.stat('/docs')
    expect(stat).toMatchObject({ entry_type: 'directory', path: '/docs' })
    expect((await client.files.stat('/docs/a.txt')).hash).toBe(written.hash)
  })

  it('lists page by page without skipping or repeating', async () => {
    for (let i = 0; i < 25; i++)
      await client.files.write(`/many/f${String(i).padStart(2, '0')}`, `${i}`)
    const names: string[] = []
    for await (const entry of client.files.list('/many', { pageSize: 7 })) names.push(entry.name)
    expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}`))
  })

  it('moves, copies, links and deletes', async () => {
    await client.files.write('/m/a.txt', 'a')
    await client.files.mkdir('/m/sub')
    await client.files.move('/m/a.txt', '/m/sub/a.txt')
    await client.files.copy(['/m/sub/a.txt'], '/m/copy')
    await client.files.symlink('/m/link', '/m/copy/a.txt')
    expect(await client.files.readText('/m/link')).toBe('a')
    expect((await client.files.stat('/m/link', { nofollow: true })).entry_type).toBe('symlink')
    await client.files.delete('/m', { recursive: true })
    const err = await client.files.readText('/m/link').catch((e: unknown) => e)
    expect(isClientError(err, 'NOT_FOUND')).toBe(true)
  })

  it('moves and copies with the request body as the argument, on a fork too', async () => {
    await client.files.write('/b/a.txt', 'a')
    await client.files.write('/b/b.txt', 'b')
    const moved = await client.files.move({ from: '/b/a.txt', to: '/b/moved.txt' })
    expect(moved.path).toBe('/b/moved.txt')
    const copied = await client.files.copy({
      paths: ['/b/moved.txt', '/b/b.txt'],
      destination: '/b/copies',
    })
    expect(copied.items.map((i) => i.path)).toEqual(['/b/copies/moved.txt', '/b/copies/b.txt'])
    expect(await client.files.readText('/b/copies/moved.txt')).toBe('a')

    await client.versions.forks.create('shape')
    await client.files.move({ from: '/b/b.txt', to: '/b/on-fork.txt' }, { fork: 'shape' })
    expect(await client.files.exists('/b/b.txt')).toBe(true)
    expect(await client.files.exists('/b/on-fork.txt', { fork: 'shape' })).toBe(true)

    await expect(client.files.move({ from: '/b/none', to: '/b/x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    // A programming mistake fails at once, before any request.
    expect(() => client.files.move('/b/b.txt', { fork: 'shape' } as never)).toThrow(TypeError)
  })

  it('uploads a large file a second time sending only the changed chunks', async () => {
    const recorder = recordingFetch()
    const counted = createClient({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: recorder.fetch,
    })
    const big = randomBytes(3 * 1024 * 1024)
    const first = await counted.files.upload('/big.bin', big, { contentType: 'application/x-test' })
    expect(first.size).toBe(big.length)
    const sentFirst = recorder.calls.filter((c) => c.path.startsWith('/uploads/chunks/'))
    expect(sentFirst.reduce((n, c) => n + c.bytes, 0)).toBe(big.length)

    recorder.calls.length = 0
    const edited = Buffer.from(big)
    edited.write('a small edit in the middle', 1_500_000)
    const progress: number[] = []
    const second = await counted.files.upload('/big.bin', edited, {
      onProgress: (p) => progress.push(p.bytesSent),
    })
    const sentSecond = recorder.calls
      .filter((c) => c.path.startsWith('/uploads/chunks/'))
      .reduce((n, c) => n + c.bytes, 0)
    expect(sentSecond).toBeGreaterThan(0)
    expect(sentSecond).toBeLessThan(600 * 1024)
    expect(progress.at(-1)).toBe(sentSecond)
    expect(second.hash).not.toBe(first.hash)
    expect(Buffer.from(await counted.files.readBytes('/big.bin')).equals(edited)).toBe(true)
  })
})
