import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHasher } from '../hashing/create-hasher'
import { toHex } from '../internal/hex'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { outcome } from '../testing/meta-store-conformance/async-results'
import { createBlobChunkStore } from './blob-chunk-store'
import type { BlobStore } from './blob-store'
import type { ChunkStore } from './chunk-store'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import { createMemoryBlobStore } from './memory-blob-store'

const CHUNK = 20_000
const RECORD = RECORD_HEADER_LENGTH + CHUNK // random bytes are stored raw

/** A blob store that counts GETs of the one it wraps. */
function countingBlobs(inner: BlobStore): BlobStore & { gets: number } {
  const counting = {
    gets: 0,
    put: (key: string, bytes: Uint8Array) => inner.put(key, bytes),
    get: (key: string, range?: Parameters<BlobStore['get']>[1]) => {
      counting.gets++
      return inner.get(key, range)
    },
    delete: (keys: readonly string[]) => inner.delete(keys),
    list: (prefix: string) => inner.list(prefix),
    close: () => inner.close(),
  }
  return counting
}

const hasher = createHasher('sha256')
const idOf = async (bytes: Uint8Array): Promise<Uint8Array> =>
  (await hasher).hashDomain('chunk', bytes)

let dir: string
let meta: MetaStore
let blobs: BlobStore & { gets: number }
const opened: ChunkStore[] = []

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'svcdb-blob-cache-')), 'cache')
  const level = new MemoryLevel<Uint8Array, Uint8Array>({
    keyEncoding: 'view',
    valueEncoding: 'view',
  })
  await level.open()
  meta = createLevelMetaStore(level)
  blobs = countingBlobs(createMemoryBlobStore())
})

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close()
  await meta.close()
  await blobs.close()
  await rm(join(dir, '..'), { recursive: true, force: true })
})

function open(maxBytes = 10 * RECORD): ChunkStore {
  const store = createBlobChunkStore({ meta, blobs, cache: { dir, maxBytes } })
  opened.push(store)
  return store
}

/** Stages and commits chunks of distinct random bytes; returns their hashes and bytes. */
async function storeChunks(
  store: ChunkStore,
  count: number,
): Promise<{ hash: Uint8Array; bytes: Uint8Array }[]> {
  const chunks = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const bytes = pseudoRandomBytes(CHUNK, 1000 + i)
      return { hash: await idOf(bytes), bytes }
    }),
  )
  const results = await Promise.all(chunks.map((c) => store.stage(c.hash, c.bytes)))
  await meta.batch([...results.flatMap((r) => r.ops), ...(await store.flush())], { sync: true })
  store.committed()
  return chunks
}

const cachePath = (hash: Uint8Array): string => join(dir, toHex(hash).slice(0, 2), toHex(hash))

/** Every file under the cache directory: path relative to it, and size. */
async function cacheFiles(): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const folder of await readdir(dir)) {
    for (const name of await readdir(join(dir, folder))) {
      out.set(`${folder}/${name}`, (await stat(join(dir, folder, name))).size)
    }
  }
  return out
}

async function readMany(store: ChunkStore, hashes: Uint8Array[]): Promise<Uint8Array[]> {
  if (store.readMany === undefined) throw new Error('the blob chunk store has readMany')
  return store.readMany(hashes)
}

const sum = (sizes: Map<string, number>): number => [...sizes.values()].reduce((a, b) => a + b, 0)

describe('blob chunk store read cache', () => {
  it('serves a second read from the cache, without a GET', async () => {
    const store = open()
    const [chunk] = await storeChunks(store, 1)
    const { hash, bytes } = chunk as { hash: Uint8Array; bytes: Uint8Array }
    expect(Buffer.compare(await store.read(hash), bytes)).toBe(0)
    expect(blobs.gets).toBe(1)
    expect(Buffer.compare(await store.read(hash), bytes)).toBe(0)
    expect(blobs.gets).toBe(1)
    expect((await stat(cachePath(hash))).size).toBe(RECORD)
  })

  it('serves readMany from the cache chunk by chunk', async () => {
    const store = open()
    const chunks = await storeChunks(store, 4)
    await store.read((chunks[1] as { hash: Uint8Array }).hash)
    const gets = blobs.gets
    const first = await readMany(
      store,
      chunks.map((c) => c.hash),
    )
    expect(blobs.gets).toBe(gets + 3)
    const second = await readMany(
      store,
      chunks.map((c) => c.hash),
    )
    expect(blobs.gets).toBe(gets + 3)
    for (const [i, { bytes }] of chunks.entries()) {
      expect(Buffer.compare(first[i] as Uint8Array, bytes)).toBe(0)
      expect(Buffer.compare(second[i] as Uint8Array, bytes)).toBe(0)
    }
  })

  it('evicts the least recently used files to stay within maxBytes', async () => {
    const store = open(3 * RECORD + 100)
    const chunks = await storeChunks(store, 5)
    const [c0, c1, c2, c3, c4] = chunks.map((c) => c.hash) as Uint8Array[]
    // Each read twice: the second waits for the first one's cache write, so the order of use
    // is the order of the reads.
    for (const hash of [c0, c1, c2, c0, c3, c4] as Uint8Array[]) {
      await store.read(hash)
      await store.read(hash)
    }
    expect(blobs.gets).toBe(5)
    await store.close()
    const files = await cacheFiles()
    expect(sum(files)).toBeLessThanOrEqual(3 * RECORD + 100)
    // c0 was read again after c1 and c2, so they went first.
    expect([...files.keys()].sort()).toEqual(
      [c0, c3, c4]
        .map((h) => `${toHex(h as Uint8Array).slice(0, 2)}/${toHex(h as Uint8Array)}`)
        .sort(),
    )
  })

  it.each([
    ['a flipped byte', (path: string) => flipByte(path)],
    ['a truncated file', (path: string) => truncate(path, RECORD - 10)],
    ['an empty file', (path: string) => truncate(path, 0)],
  ])('detects %s, deletes it and fetches the chunk again', async (_, damage) => {
    const first = open()
    const [chunk] = await storeChunks(first, 1)
    const { hash, bytes } = chunk as { hash: Uint8Array; bytes: Uint8Array }
    await first.read(hash)
    await first.close()
    const good = await readFile(cachePath(hash))
    await damage(cachePath(hash))

    const store = open()
    const gets = blobs.gets
    expect(Buffer.compare(await store.read(hash), bytes)).toBe(0)
    expect(blobs.gets).toBe(gets + 1)
    await store.close()
    expect(Buffer.compare(await readFile(cachePath(hash)), good)).toBe(0)
  })

  it('rebuilds its index from the directory at open, evicting down to maxBytes', async () => {
    const first = open()
    const chunks = await storeChunks(first, 4)
    for (const { hash } of chunks) await first.read(hash)
    await first.close()
    expect((await cacheFiles()).size).toBe(4)

    const store = open()
    const gets = blobs.gets
    for (const { hash, bytes } of chunks) {
      expect(Buffer.compare(await store.read(hash), bytes)).toBe(0)
    }
    expect(blobs.gets).toBe(gets)
    await store.close()

    const small = open(2 * RECORD)
    await small.read((chunks[0] as { hash: Uint8Array }).hash)
    await small.close()
    expect(sum(await cacheFiles())).toBeLessThanOrEqual(2 * RECORD)
  })

  it('fetches a chunk read concurrently once and writes it once', async () => {
    const store = open()
    const [chunk] = await storeChunks(store, 1)
    const { hash, bytes } = chunk as { hash: Uint8Array; bytes: Uint8Array }
    const reads = await Promise.all(Array.from({ length: 8 }, () => store.read(hash)))
    for (const read of reads) expect(Buffer.compare(read, bytes)).toBe(0)
    // Each reader owns its bytes.
    const [mine] = reads as [Uint8Array]
    mine.fill(0)
    expect(Buffer.compare(reads[1] as Uint8Array, bytes)).toBe(0)
    expect(blobs.gets).toBe(1)
    await store.close()
    expect([...(await cacheFiles()).keys()]).toEqual([`${toHex(hash).slice(0, 2)}/${toHex(hash)}`])
    expect(
      Buffer.compare((await readFile(cachePath(hash))).subarray(RECORD_HEADER_LENGTH), bytes),
    ).toBe(0)
  })

  it('deletes temp files left by an interrupted write at open', async () => {
    const leftover = join(dir, 'ab', `ab${'0'.repeat(62)}.tmp-123456`)
    await mkdir(join(dir, 'ab'), { recursive: true })
    await writeFile(leftover, 'half a record')
    const store = open()
    const [chunk] = await storeChunks(store, 1)
    await store.read((chunk as { hash: Uint8Array }).hash)
    await store.close()
    await expect(stat(leftover)).rejects.toThrow()
  })

  it('does not serve a cached chunk the index no longer holds', async () => {
    const store = open()
    const [chunk] = await storeChunks(store, 1)
    const { hash } = chunk as { hash: Uint8Array }
    await store.read(hash)
    await meta.batch(store.removeOps(hash), { sync: true })
    expect(await outcome(store.read(hash))).toBe('NOT_FOUND')
    expect(await outcome(readMany(store, [hash]))).toBe('NOT_FOUND')
  })

  it('refuses a maxBytes that is not a positive integer', () => {
    expect(() => createBlobChunkStore({ meta, blobs, cache: { dir, maxBytes: 0 } })).toThrow(
      RangeError,
    )
  })
})

async function flipByte(path: string): Promise<void> {
  const bytes = await readFile(path)
  const at = bytes.length - 100
  bytes[at] = (bytes[at] as number) ^ 0x01
  await writeFile(path, bytes)
}
