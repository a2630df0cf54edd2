import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import type { EngineError } from '../errors'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { blobLastSeenCodec, blobTombstone, isBlobTombstone } from './blob-chunk-entry'
import { blobChunkKey } from './blob-chunk-key'
import { createBlobChunkStore } from './blob-chunk-store'
import type { BlobStore } from './blob-store'
import { TOMBSTONE_DELETE_MS, TOMBSTONE_STALE_MS, TOMBSTONE_WAIT_MS } from './blob-tombstones'
import type { ChunkStore, StageResult } from './chunk-store'
import type { SweepEntry } from './chunk-sweep'
import { createMemoryBlobStore } from './memory-blob-store'

const REFRESH_MS = 60_000

interface Node {
  meta: MetaStore
  blobs: BlobStore
  store: ChunkStore
  clock: { now(): number; advance(ms: number): void }
}

const opened: MetaStore[] = []

afterEach(async () => {
  for (const meta of opened.splice(0)) await meta.close()
})

/** A blob chunk store recording last_seen, on a test clock; `blobs` defaults to memory. */
async function node(blobs: BlobStore = createMemoryBlobStore()): Promise<Node> {
  const level = new MemoryLevel<Uint8Array, Uint8Array>({
    keyEncoding: 'view',
    valueEncoding: 'view',
  })
  await level.open()
  const meta = createLevelMetaStore(level)
  opened.push(meta)
  let now = 10_000_000
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) }
  const store = createBlobChunkStore({ meta, blobs, lastSeen: { clock, refreshMs: REFRESH_MS } })
  return { meta, blobs, store, clock }
}

const hasher = createHasher('sha256')
async function chunk(seed: number): Promise<{ hash: Uint8Array; bytes: Uint8Array }> {
  const bytes = pseudoRandomBytes(3000, seed)
  return { hash: (await hasher).hashDomain('chunk', bytes), bytes }
}

async function commit({ meta, store }: Node, result: StageResult): Promise<void> {
  await meta.batch([...result.ops, ...(await store.flush())], { sync: true })
  store.committed()
}

async function putTombstone(meta: MetaStore, hash: Uint8Array, since: number): Promise<void> {
  await meta.batch([{ type: 'put', space: 'chunkidx', key: hash, value: blobTombstone(since) }], {
    sync: true,
  })
}

async function listEntries({ store }: Node): Promise<SweepEntry[]> {
  const out: SweepEntry[] = []
  for await (const entry of store.sweep!.entries()) out.push(entry)
  return out
}

/** A GC's batch over `entries` (the tombstones); false when a guard failed. */
async function gcBatch({ meta, store }: Node, entries: SweepEntry[]) {
  const removal = store.sweep!.removal(entries)
  try {
    await meta.batch(removal.ops, { sync: true, guards: removal.guards })
    return removal
  } catch (err) {
    if (isEngineError(err, 'CONFLICT')) return undefined
    throw err
  }
}

async function objectExists(blobs: BlobStore, hash: Uint8Array): Promise<boolean> {
  for await (const info of blobs.list('chunks/')) if (info.key === blobChunkKey(hash)) return true
  return false
}

describe('blob chunk store tombstones', () => {
  it('a stage taking over a stale tombstone makes the next GC lose, not delete its upload', async () => {
    const n = await node()
    const { hash, bytes } = await chunk(1)
    // A GC died after its batch, long ago.
    await putTombstone(n.meta, hash, n.clock.now())
    n.clock.advance(60 * 60 * 1000)
    const listed = await listEntries(n)
    expect(listed).toHaveLength(1)
    const staged = await n.store.stage(hash, bytes)
    // The next GC, working from what it listed before the stage.
    const removal = await gcBatch(n, listed)
    await removal?.afterCommit()
    expect(removal).toBeUndefined()
    await commit(n, staged)
    expect(await objectExists(n.blobs, hash)).toBe(true)
    expect(Buffer.from(await n.store.read(hash)).equals(bytes)).toBe(true)
  })

  it('a GC listing after the takeover finds nothing of the chunk to remove', async () => {
    const n = await node()
    const { hash, bytes } = await chunk(2)
    await putTombstone(n.meta, hash, n.clock.now())
    n.clock.advance(TOMBSTONE_STALE_MS + 1)
    const staged = await n.store.stage(hash, bytes)
    expect(await listEntries(n)).toEqual([])
    await commit(n, staged)
    expect(Buffer.from(await n.store.read(hash)).equals(bytes)).toBe(true)
  })

  it('a GC that stalled past the delete window leaves the object a stage uploaded again', async () => {
    const n = await node()
    const { hash, bytes } = await chunk(3)
    await commit(n, await n.store.stage(hash, bytes))
    n.clock.advance(REFRESH_MS * 3)
    const removal = await gcBatch(n, await listEntries(n))
    expect(removal).toBeDefined()
    // The GC pauses; meanwhile its tombstone goes stale and a stage takes it over.
    n.clock.advance(TOMBSTONE_STALE_MS + 1)
    const staged = await n.store.stage(hash, bytes)
    expect(staged.isNew).toBe(true)
    await removal!.afterCommit()
    await commit(n, staged)
    expect(Buffer.from(await n.store.read(hash)).equals(bytes)).toBe(true)
  })

  it('a GC past the delete window deletes nothing and abandons its tombstones to the next GC', async () => {
    const n = await node()
    const { hash, bytes } = await chunk(4)
    await commit(n, await n.store.stage(hash, bytes))
    n.clock.advance(REFRESH_MS * 3)
    const removal = await gcBatch(n, await listEntries(n))
    n.clock.advance(TOMBSTONE_DELETE_MS)
    await removal!.afterCommit()
    expect(await objectExists(n.blobs, hash)).toBe(true)
    const [left] = await listEntries(n)
    expect(left?.live).toBe(false)
    expect(left?.lastSeen).toBe(0)
    // The next GC finishes it.
    const next = await gcBatch(n, [left!])
    await next!.afterCommit()
    expect(await objectExists(n.blobs, hash)).toBe(false)
    expect(await listEntries(n)).toEqual([])
  })

  it('a failed object delete abandons the tombstones: a stage uploads at once, without waiting', async () => {
    const blobs = createMemoryBlobStore()
    let failDeletes = false
    const flaky: BlobStore = {
      ...blobs,
      delete: (keys) =>
        failDeletes ? Promise.reject(new Error('service unavailable')) : blobs.delete(keys),
    }
    const n = await node(flaky)
    const { hash, bytes } = await chunk(5)
    await commit(n, await n.store.stage(hash, bytes))
    n.clock.advance(REFRESH_MS * 3)
    const removal = await gcBatch(n, await listEntries(n))
    failDeletes = true
    await expect(removal!.afterCommit()).rejects.toMatchObject({ code: 'IO_ERROR' })
    // The test clock stands still: a stage waiting for a young tombstone would never finish.
    const staged = await n.store.stage(hash, bytes)
    await commit(n, staged)
    expect(Buffer.from(await n.store.read(hash)).equals(bytes)).toBe(true)
  })

  it('a stage waits for a young tombstone at most TOMBSTONE_WAIT_MS, then fails with CONFLICT', async () => {
    const n = await node()
    const { hash, bytes } = await chunk(6)
    await putTombstone(n.meta, hash, n.clock.now())
    let settled = false
    const stage = n.store.stage(hash, bytes).finally(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(settled).toBe(false)
    n.clock.advance(TOMBSTONE_WAIT_MS)
    const err = await stage.catch((e: unknown) => e)
    expect(isEngineError(err, 'CONFLICT')).toBe(true)
    expect((err as EngineError).message).toMatch(/try again/)
    const [entry] = await n.meta.getMany('chunkidx', [hash])
    expect(isBlobTombstone(entry!)).toBe(true)
  })
})

describe('last_seen refresh losing every race', () => {
  /** A metadata store where another writer re-stamps the chunk (stale) before each guarded write. */
  async function contended(): Promise<Node & { hash: Uint8Array; bytes: Uint8Array }> {
    const level = new MemoryLevel<Uint8Array, Uint8Array>({
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    await level.open()
    const inner = createLevelMetaStore(level)
    opened.push(inner)
    let now = 10_000_000
    const clock = { now: () => now, advance: (ms: number) => void (now += ms) }
    let stale = 1
    const meta: MetaStore = {
      ...inner,
      async batch(ops, opts) {
        const guard = opts?.guards?.[0]
        if (guard !== undefined) {
          const key = guard.key as Uint8Array
          const [current] = await inner.getMany('chunkidx', [key])
          if (current !== undefined && !isBlobTombstone(current)) {
            const value = blobLastSeenCodec.withLastSeen(current, stale++)
            await inner.batch([{ type: 'put', space: 'chunkidx', key, value }], { sync: true })
          }
        }
        return inner.batch(ops, opts)
      },
    }
    const store = createBlobChunkStore({
      meta,
      blobs: createMemoryBlobStore(),
      lastSeen: { clock, refreshMs: REFRESH_MS },
    })
    const { hash, bytes } = await chunk(7)
    const n = { meta, blobs: createMemoryBlobStore(), store, clock }
    await commit(n, await store.stage(hash, bytes))
    clock.advance(REFRESH_MS + 1)
    return { ...n, hash, bytes }
  }

  it('has() answers absent (the caller stores the chunk again) instead of failing', async () => {
    const { store, hash } = await contended()
    expect(await store.has(hash, { committed: true })).toBe(false)
  })

  it('rawSize() and a stage fail with a retryable CONFLICT that says to try again', async () => {
    const { store, hash, bytes } = await contended()
    await expect(store.rawSize(hash, { committed: true })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/try again/),
    })
    await expect(store.stage(hash, bytes)).rejects.toMatchObject({ code: 'CONFLICT' })
  })
})
