import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, isClientError } from '../src'
import type { Client, UploadManyFile, UploadManyProgress } from '../src'
import type { CommitManyResultView } from '@svcdb/contract'
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

/** `count` small text files below `dir`, yielded one at a time. */
async function* smallFiles(dir: string, count: number): AsyncGenerator<UploadManyFile> {
  for (let i = 0; i < count; i++)
    yield { path: `${dir}/${i % 7}/f${i}.txt`, source: `file ${i} `.repeat(1 + (i % 40)) }
}

describe('files.uploadMany', () => {
  it('uploads files of every size as one version, reporting each file', async () => {
    const big = new Uint8Array(randomBytes(3 * 1024 * 1024))
    const committed: CommitManyResultView[] = []
    const result = await client.files.uploadMany(
      [
        { path: '/tree/big.bin', source: big },
        { path: '/tree/a.txt', source: 'alpha', contentType: 'text/plain', metadata: { n: 1 } },
        { path: 'tree/sub/empty', source: new Uint8Array(0) },
        { path: '/tree/sub/blob.txt', source: () => new Blob(['from a blob']) },
      ],
      { onCommitted: (c) => committed.push(c), batchChunks: 8 },
    )
    expect(result).toMatchObject({ files: 4, bytes: big.length + 16, commits: 1 })
    expect(result.bytesSent).toBe(big.length + 16)
    expect(committed).toHaveLength(1)
    expect(committed[0]?.version).toBe(result.version)
    expect(committed[0]?.files.map((f) => [f.path, f.size, f.version])).toEqual([
      ['/tree/big.bin', big.length, result.version],
      ['/tree/a.txt', 5, result.version],
      ['/tree/sub/empty', 0, result.version],
      ['/tree/sub/blob.txt', 11, result.version],
    ])
    expect((await client.files.readBytes('/tree/big.bin')).length).toBe(big.length)
    expect(Buffer.from(await client.files.readBytes('/tree/big.bin')).equals(big)).toBe(true)
    expect(await client.files.readText('/tree/sub/blob.txt')).toBe('from a blob')
    expect(await client.files.stat('/tree/a.txt')).toMatchObject({ content_type: 'text/plain' })
    expect((await client.files.stat('/tree/sub/empty')).size).toBe(0)

    // The same content again: nothing travels but the commit.
    const again = await client.files.uploadMany([{ path: '/tree/big-copy.bin', source: big }])
    expect(again).toMatchObject({ files: 1, bytesSent: 0, commits: 1 })
    expect((await client.files.stat('/tree/big-copy.bin')).hash).toBe(
      (await client.files.stat('/tree/big.bin')).hash,
    )
  })

  it('commits in batches within the request limits, one version each', async () => {
    const { fetch, calls } = recordingFetch()
    const counted = createClient({ baseUrl: server.url, apiKey: server.rootApiKey, fetch })
    const progress: UploadManyProgress[] = []
    const versions: string[] = []
    const result = await counted.files.uploadMany(smallFiles('/batches', 250), {
      filesPerCommit: 100,
      onProgress: (p) => progress.push(p),
      onCommitted: (c) => versions.push(c.version),
    })
    expect(result).toMatchObject({ files: 250, commits: 3 })
    expect(calls.filter((c) => c.path === '/uploads/commit-many')).toHaveLength(3)
    expect(new Set(versions).size).toBe(3)
    expect(result.version).toBe(versions[2])
    expect(progress.at(-1)).toMatchObject({ files: 250, filesCommitted: 250, commits: 3 })
    // The byte budget splits too: ~100 bytes of JSON a file, 5,000 bytes a commit.
    const small = await counted.files.uploadMany(smallFiles('/bytes', 120), { commitBytes: 5_000 })
    expect(small.commits).toBeGreaterThan(2)
    let listed = 0
    for await (const entry of client.files.list('/batches', { depth: -1 })) {
      if (entry.entry_type === 'file') listed++
    }
    expect(listed).toBe(250)
    expect(await client.files.readText('/batches/3/f10.txt')).toBe('file 10 '.repeat(11))
  })

  it('opens lazy sources one at a time and writes to a fork', async () => {
    await client.versions.forks.create('bulk')
    let open = 0
    let most = 0
    async function* files(): AsyncGenerator<UploadManyFile> {
      for (let i = 0; i < 20; i++)
        yield {
          path: `/lazy/f${i}`,
          source: async function* () {
            open++
            most = Math.max(most, open)
            yield new TextEncoder().encode(`lazy ${i}`)
            open--
          },
        }
    }
    const result = await client.files.uploadMany(files(), { fork: 'bulk' })
    expect(result.files).toBe(20)
    expect(most).toBe(1)
    expect(await client.files.readText('/lazy/f7', { fork: 'bulk' })).toBe('lazy 7')
    const head = await client.files.readText('/lazy/f7').catch((e: unknown) => e)
    expect(isClientError(head, 'NOT_FOUND')).toBe(true)
  })

  it('fails with the server error and stores nothing of a refused commit', async () => {
    await client.files.mkdir('/clash/dir')
    const err = await client.files
      .uploadMany([
        { path: '/clash/ok.txt', source: 'ok' },
        { path: '/clash/dir', source: 'not a directory' },
      ])
      .catch((e: unknown) => e)
    expect(isClientError(err, 'CONFLICT')).toBe(true)
    const gone = await client.files.stat('/clash/ok.txt').catch((e: unknown) => e)
    expect(isClientError(gone, 'NOT_FOUND')).toBe(true)
  })

  it('stops when its signal fires, leaving the uncommitted files unwritten', async () => {
    const controller = new AbortController()
    async function* files(): AsyncGenerator<UploadManyFile> {
      for (let i = 0; i < 50; i++) {
        if (i === 30) controller.abort()
        yield { path: `/aborted/f${i}`, source: `${i}` }
      }
    }
    const err = await client.files
      .uploadMany(files(), { signal: controller.signal, filesPerCommit: 20 })
      .catch((e: unknown) => e)
    expect(isClientError(err, 'ABORTED')).toBe(true)
    // The first 20 were committed before the abort; the rest never were.
    expect(await client.files.readText('/aborted/f19')).toBe('19')
    const late = await client.files.stat('/aborted/f20').catch((e: unknown) => e)
    expect(isClientError(late, 'NOT_FOUND')).toBe(true)
  })

  it('sends a scoped key the chunks it never sent itself, and a denied path refuses all', async () => {
    await client.files.uploadMany([{ path: '/owned/root.txt', source: 'shared content' }])
    const key = await client.keys.create({
      label: 'writer',
      rules: [{ '/drop/**': 'cru-l---' }, { '/**': '--------' }],
    })
    const scoped = createClient({ baseUrl: server.url, apiKey: key.key })
    // Stored already, but not by this key: its bytes travel (issue 23), then it commits.
    const own = await scoped.files.uploadMany([
      { path: '/drop/copy.txt', source: 'shared content' },
    ])
    expect(own).toMatchObject({ files: 1, bytesSent: 14 })
    expect(await client.files.readText('/drop/copy.txt')).toBe('shared content')
    const denied = await scoped.files
      .uploadMany([
        { path: '/drop/fine.txt', source: 'fine' },
        { path: '/owned/over.txt', source: 'no' },
      ])
      .catch((e: unknown) => e)
    expect(isClientError(denied, 'NOT_FOUND')).toBe(true)
    const fine = await client.files.stat('/drop/fine.txt').catch((e: unknown) => e)
    expect(isClientError(fine, 'NOT_FOUND')).toBe(true)
  })
})
