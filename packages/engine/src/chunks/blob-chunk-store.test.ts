import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { collect, outcome } from '../testing/meta-store-conformance/async-results'
import {
  createBlobChunkStoreFixture,
  runChunkStoreConformance,
} from '../testing/chunk-store-conformance'
import type { ChunkStoreFixture } from '../testing/chunk-store-conformance'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { createHasher } from '../hashing/create-hasher'
import type { BlobStore } from './blob-store'
import { blobChunkKey } from './blob-chunk-key'
import type { BlobChunkStoreOptions } from './blob-chunk-store'
import type { StageResult } from './chunk-store'
import { createMemoryBlobStore } from './memory-blob-store'

type Tuning = Omit<BlobChunkStoreOptions, 'meta' | 'blobs'>

/** A blob chunk store over memory-level and `blobs`; `reopen` keeps both stores' data. */
function fixture(
  blobs: BlobStore = createMemoryBlobStore(),
  tuning: Tuning = {},
  level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' }),
): Promise<ChunkStoreFixture> {
  return createBlobChunkStoreFixture({
    blobs,
    tuning,
    async openMeta() {
      if (level.status !== 'open') await level.open()
      return createLevelMetaStore(level)
    },
  })
}

runChunkStoreConformance('blob (memory-level, memory blobs)', () => fixture())

// Every removed chunk is past the grace period at once: compaction really deletes.
runChunkStoreConformance('blob (memory-level, memory blobs, no grace)', () =>
  fixture(createMemoryBlobStore(), { orphanGraceMs: 0, clock: { now: () => Date.now() + 1000 } }),
)

// Index entries carry last_seen (and the store a sweep): the port's contract is unchanged.
runChunkStoreConformance('blob (memory-level, memory blobs, last_seen)', () =>
  fixture(createMemoryBlobStore(), { lastSeen: {} }),
)

const hasher = createHasher('sha256')
const idOf = async (bytes: Uint8Array): Promise<Uint8Array> =>
  (await hasher).hashDomain('chunk', bytes)

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

async function commit(f: ChunkStoreFixture, results: StageResult[]): Promise<void> {
  await f.meta.batch([...results.flatMap((r) => r.ops), ...(await f.store.flush())], { sync: true })
  f.store.committed()
}

async function stageAndCommit(f: ChunkStoreFixture, chunks: Uint8Array[]): Promise<void> {
  await commit(f, await Promise.all(chunks.map(async (c) => f.store.stage(await idOf(c), c))))
}

/** A memory blob store whose calls can be held at gates, and that can be made to fail. */
function gatedBlobs() {
  const inner = createMemoryBlobStore()
  const gate = () => {
    let open!: () => void
    const opened = new Promise<void>((resolve) => (open = resolve))
    let reach!: () => void
    const reached = new Promise<void>((resolve) => (reach = resolve))
    return { open, opened, reach, reached }
  }
  const control = {
    failPuts: false,
    getsInFlight: 0,
    maxGetsInFlight: 0,
    listEnd: undefined as ReturnType<typeof gate> | undefined,
    deletes: undefined as ReturnType<typeof gate> | undefined,
    gate,
  }
  const blobs: BlobStore = {
    async put(key, bytes) {
      if (control.failPuts) throw new Error('disk on fire')
      return inner.put(key, bytes)
    },
    async get(key, range) {
      control.maxGetsInFlight = Math.max(control.maxGetsInFlight, ++control.getsInFlight)
      try {
        await new Promise((resolve) => setTimeout(resolve, 1))
        return await inner.get(key, range)
      } finally {
        control.getsInFlight--
      }
    },
    async delete(keys) {
      const held = control.deletes
      if (held !== undefined) {
        held.reach()
        await held.opened
      }
      return inner.delete(keys)
    },
    async *list(prefix) {
      yield* inner.list(prefix)
      const held = control.listEnd
      if (held !== undefined) {
        held.reach()
        await held.opened
      }
    },
    close: () => inner.close(),
  }
  return { blobs, control }
}

describe('blob-chunk-store', () => {
  it('keeps each chunk as one object under chunks/<2 hex>/<64 hex>', async () => {
    const blobs = createMemoryBlobStore()
    const f = await fixture(blobs)
    const chunk = pseudoRandomBytes(5000, 1)
    await stageAndCommit(f, [chunk])
    const hex = Buffer.from(await idOf(chunk)).toString('hex')
    const listed = await collect(blobs.list(''))
    expect(listed.map((info) => info.key)).toEqual([`chunks/${hex.slice(0, 2)}/${hex}`])
    await f.close()
  })

  it('rejects a stage whose put fails with IO_ERROR and indexes nothing', async () => {
    const { blobs, control } = gatedBlobs()
    const f = await fixture(blobs)
    const chunk = pseudoRandomBytes(5000, 2)
    const hash = await idOf(chunk)
    control.failPuts = true
    const failed = await f.store.stage(hash, chunk).then(
      () => undefined,
      (err: unknown) => err as { code?: string; cause?: unknown },
    )
    expect(failed?.code).toBe('IO_ERROR')
    expect((failed?.cause as Error).message).toBe('disk on fire')
    expect(await f.store.has(hash)).toBe(false)
    expect(await f.store.flush()).toEqual([])
    expect(await collect(f.meta.keys('chunkidx'))).toEqual([])
    expect(await outcome(f.store.read(hash))).toBe('NOT_FOUND')
    control.failPuts = false
    const again = await f.store.stage(hash, chunk)
    expect(again.isNew).toBe(true)
    await f.close()
  })

  it('stages many chunks in one call, in order, a hash repeated in the call once', async () => {
    const blobs = createMemoryBlobStore()
    const f = await fixture(blobs)
    const [a, b] = [pseudoRandomBytes(3000, 40), pseudoRandomBytes(4000, 41)] as Uint8Array[]
    await stageAndCommit(f, [b as Uint8Array])
    const items = await Promise.all(
      [a, b, a].map(async (bytes) => ({
        hash: await idOf(bytes as Uint8Array),
        bytes: bytes as Uint8Array,
      })),
    )
    const results = (await f.store.stageMany?.(items)) ?? []
    expect(results.map((r) => [r.isNew, r.ops.length])).toEqual([
      [true, 1],
      [false, 0],
      [false, 1],
    ])
    expect((await collect(blobs.list(''))).length).toBe(2)
    await commit(f, results)
    expect(sameBytes(await f.store.read(items[0]!.hash), a as Uint8Array)).toBe(true)
    await f.close()
  })

  it('reads many chunks in order, at most readConcurrency objects at a time', async () => {
    const { blobs, control } = gatedBlobs()
    const f = await fixture(blobs, { readConcurrency: 3 })
    const chunks = Array.from({ length: 20 }, (_, i) => pseudoRandomBytes(1000 + i, 100 + i))
    await stageAndCommit(f, chunks)
    const read = await f.store.readMany?.(await Promise.all(chunks.map(idOf)))
    expect(read?.map((c) => Buffer.from(c).toString('hex'))).toEqual(
      chunks.map((c) => Buffer.from(c).toString('hex')),
    )
    expect(control.maxGetsInFlight).toBe(3)
    await f.close()
  })

  it('sweeps unindexed objects only once they are older than the grace period', async () => {
    const blobs = createMemoryBlobStore()
    let now = Date.now()
    let f = await fixture(blobs, { clock: { now: () => now }, orphanGraceMs: 60_000 })
    const [live, removed, uncommitted] = [1, 2, 3].map((s) => pseudoRandomBytes(4000 * s, s + 10))
    await stageAndCommit(f, [live, removed] as Uint8Array[])
    await f.meta.batch(f.store.removeOps(await idOf(removed as Uint8Array)), { sync: true })
    await f.store.stage(await idOf(uncommitted as Uint8Array), uncommitted as Uint8Array)
    f = await f.reopen()
    // Not chunk keys: never swept, whatever their age.
    await blobs.put('chunks/zz/not-a-chunk', Uint8Array.of(1))
    await blobs.put('other/object', Uint8Array.of(1))
    const sizeOf = new Map((await collect(blobs.list(''))).map((i) => [i.key, i.size]))
    const orphans = [removed, uncommitted].map(async (c) =>
      blobChunkKey(await idOf(c as Uint8Array)),
    )
    const orphanBytes = (await Promise.all(orphans)).reduce((sum, key) => sum + sizeOf.get(key)!, 0)
    const compact = () => f.store.compact({ commit: () => Promise.reject(new Error('no commit')) })
    const report = { packsRewritten: 0, packsRemoved: 0, movedBytes: 0, reclaimedBytes: 0 }

    // Written since `now`: still within the grace period half a minute on, past it 10 min on.
    now += 30_000
    expect(await compact()).toEqual({ ...report, deadBytes: orphanBytes })
    expect(sizeOf.size).toBe((await collect(blobs.list(''))).length)
    now += 570_000
    const swept = { ...report, packsRemoved: 2, reclaimedBytes: orphanBytes, deadBytes: 0 }
    expect(await compact()).toEqual(swept)
    const left = (await collect(blobs.list(''))).map((i) => i.key)
    const liveKey = blobChunkKey(await idOf(live as Uint8Array))
    expect(left).toEqual([liveKey, 'chunks/zz/not-a-chunk', 'other/object'].sort())
    expect(sameBytes(await f.store.read(await idOf(live as Uint8Array)), live as Uint8Array)).toBe(
      true,
    )
    await f.close()
  })

  it('spares a chunk staged while the sweep runs, even once the staging table forgot it', async () => {
    const { blobs, control } = gatedBlobs()
    const f = await fixture(blobs, { orphanGraceMs: 0, clock: { now: () => Date.now() + 1000 } })
    const chunk = pseudoRandomBytes(6000, 30)
    const hash = await idOf(chunk)
    // An old orphan of the same bytes: an upload whose batch never committed.
    await f.store.stage(hash, chunk)
    await f.store.flush()
    f.store.committed()
    control.listEnd = control.gate()
    const sweeping = f.store.compact({ commit: async () => undefined })
    await control.listEnd.reached
    // Listed already, not yet checked: staged, and forgotten by another group's commit.
    const staged = await f.store.stage(hash, chunk)
    expect(staged.isNew).toBe(true)
    await f.store.flush()
    f.store.committed()
    control.listEnd.open()
    expect((await sweeping).packsRemoved).toBe(0)
    await commit(f, [staged])
    expect(sameBytes(await f.store.read(hash), chunk)).toBe(true)
    await f.close()
  })

  it('puts a chunk staged while the sweep deletes its object after that delete', async () => {
    const { blobs, control } = gatedBlobs()
    const f = await fixture(blobs, { orphanGraceMs: 0, clock: { now: () => Date.now() + 1000 } })
    const chunk = pseudoRandomBytes(6000, 31)
    const hash = await idOf(chunk)
    await f.store.stage(hash, chunk)
    await f.store.flush()
    f.store.committed()
    control.deletes = control.gate()
    const sweeping = f.store.compact({ commit: async () => undefined })
    await control.deletes.reached
    const staging = f.store.stage(hash, chunk)
    // Time for the stage to go as far as it can: up to its put, were it not held back.
    await new Promise((resolve) => setTimeout(resolve, 20))
    control.deletes.open()
    expect((await sweeping).packsRemoved).toBe(1)
    const staged = await staging
    await commit(f, [staged])
    expect(sameBytes(await f.store.read(hash), chunk)).toBe(true)
    await f.close()
  })

  it('closes neither the metadata store nor the blob store', async () => {
    const blobs = createMemoryBlobStore()
    const f = await fixture(blobs)
    await f.store.close()
    expect(await f.meta.get('chunkidx', new Uint8Array(32))).toBeUndefined()
    expect(await collect(blobs.list(''))).toEqual([])
    await f.close()
  })
})
