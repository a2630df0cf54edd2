import { afterEach, describe, expect, it } from 'vitest'
import type { ChunkStore, CompactOptions, CompactReport, StageResult } from '../chunks/chunk-store'
import { isEngineError } from '../errors'
import type { EngineErrorCode } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { pseudoRandomBytes } from './pseudo-random-bytes'

/** A chunk store under test, with the hooks the conformance suite needs. */
export interface ChunkStoreFixture {
  readonly store: ChunkStore
  /** The metadata store the chunk store's ops are committed to. */
  readonly meta: MetaStore
  /** Damages the stored bytes of a committed chunk (one flipped byte), the store's own way. */
  corrupt(hash: Uint8Array): Promise<void>
  /** Bytes the store keeps for chunks (pack file sizes, record sizes…), to spot duplicates. */
  footprint(): Promise<number>
  /** Closes store and metadata, then opens both again on the same data. */
  reopen(): Promise<ChunkStoreFixture>
  /** Closes store and metadata for good. */
  close(): Promise<void>
  /**
   * False when `entries()` lists several spaces one after the other, each in hash order (the
   * tiered store), so the whole list is not sorted. Default true.
   */
  readonly entriesInHashOrder?: boolean
}

/** Makes a fresh, empty fixture for one test. */
export type ChunkStoreFixtureFactory = () => Promise<ChunkStoreFixture>

/** Text-like bytes that DEFLATE shrinks several times. */
function prose(length: number, seed: number): Uint8Array {
  const words = ['version', 'chunk', 'the', 'store', 'of', 'hash', 'tree', 'pack', 'a', 'file']
  let text = ''
  for (let i = seed; text.length < length; i++) text += `${words[(i * 7 + (i >> 2)) % 10]} `
  return new TextEncoder().encode(text.slice(0, length))
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return (
    actual.length === expected.length &&
    Buffer.compare(Buffer.from(actual), Buffer.from(expected)) === 0
  )
}

async function errorCode(pending: Promise<unknown>): Promise<EngineErrorCode | string> {
  try {
    await pending
    return 'resolved'
  } catch (err) {
    return isEngineError(err) ? err.code : String(err)
  }
}

const hexOf = (hash: Uint8Array): string => Buffer.from(hash).toString('hex')

async function listEntries(
  store: ChunkStore,
): Promise<{ hash: Uint8Array; storedBytes: number }[]> {
  const out = []
  for await (const entry of store.entries()) out.push(entry)
  return out
}

/** Compacts through `meta.batch`, counting the commits. */
async function compactVia(
  fixture: ChunkStoreFixture,
  options: Omit<CompactOptions, 'commit'> = {},
  commit: CompactOptions['commit'] = (ops) => fixture.meta.batch(ops, { sync: true }),
): Promise<{ report: CompactReport; commits: number }> {
  let commits = 0
  const report = await fixture.store.compact({
    ...options,
    commit: (ops) => {
      commits++
      return commit(ops)
    },
  })
  return { report, commits }
}

/**
 * Runs the {@link ChunkStore} conformance suite (vitest) against fixtures made by
 * `makeFixture`: round trips, de-duplication, compression, corruption, durability across
 * reopen, listing, removal and compaction. Every implementation runs it in one line.
 *
 * @example
 * runChunkStoreConformance('pack', async () => makePackFixture(await mkdtemp(...)))
 */
export function runChunkStoreConformance(
  name: string,
  makeFixture: ChunkStoreFixtureFactory,
): void {
  describe(`ChunkStore conformance: ${name}`, () => {
    let current: ChunkStoreFixture | undefined
    const hasherReady = createHasher('sha256')

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    async function open(): Promise<ChunkStoreFixture> {
      current = await makeFixture()
      return current
    }

    async function reopen(fixture: ChunkStoreFixture): Promise<ChunkStoreFixture> {
      current = undefined
      current = await fixture.reopen()
      return current
    }

    async function idOf(bytes: Uint8Array): Promise<Uint8Array> {
      return (await hasherReady).hashDomain('chunk', bytes)
    }

    /** The group-commit protocol: flush, one synced batch, committed(). */
    async function commit(fixture: ChunkStoreFixture, results: StageResult[]): Promise<void> {
      const flushOps = await fixture.store.flush()
      const ops: MetaOp[] = [...results.flatMap((r) => r.ops), ...flushOps]
      await fixture.meta.batch(ops, { sync: true })
      fixture.store.committed()
    }

    async function stageAll(fixture: ChunkStoreFixture, chunks: Uint8Array[]) {
      return Promise.all(chunks.map(async (c) => fixture.store.stage(await idOf(c), c)))
    }

    it('reads back what it stored, before and after the batch commits', async () => {
      const f = await open()
      const chunks = [
        pseudoRandomBytes(1, 1),
        pseudoRandomBytes(1000, 2),
        prose(70_000, 3),
        pseudoRandomBytes(256 * 1024, 4),
      ]
      const results = await stageAll(f, chunks)
      expect(results.every((r) => r.isNew && r.ops.length > 0 && r.storedBytes > 0)).toBe(true)
      for (const c of chunks) {
        expect(await f.store.has(await idOf(c))).toBe(true)
        expect(await f.store.has(await idOf(c), { committed: true })).toBe(false)
        expect(sameBytes(await f.store.read(await idOf(c)), c)).toBe(true)
      }
      await commit(f, results)
      for (const c of chunks) {
        expect(await f.store.has(await idOf(c))).toBe(true)
        expect(await f.store.has(await idOf(c), { committed: true })).toBe(true)
        expect(sameBytes(await f.store.read(await idOf(c)), c)).toBe(true)
      }
    })

    it('reports the real raw size of what it stored, staged or committed', async () => {
      const f = await open()
      const chunks = [pseudoRandomBytes(10, 11), prose(70_000, 12), pseudoRandomBytes(200_000, 13)]
      const missing = await idOf(pseudoRandomBytes(10, 14))
      const results = await stageAll(f, chunks)
      for (const c of chunks) {
        expect(await f.store.rawSize(await idOf(c))).toBe(c.length)
        expect(await f.store.rawSize(await idOf(c), { committed: true })).toBeUndefined()
      }
      await commit(f, results)
      for (const c of chunks) {
        expect(await f.store.rawSize(await idOf(c), { committed: true })).toBe(c.length)
      }
      expect(await f.store.rawSize(missing)).toBeUndefined()
    })

    it('reports a chunk it never stored as missing', async () => {
      const f = await open()
      const hash = await idOf(pseudoRandomBytes(100, 5))
      expect(await f.store.has(hash)).toBe(false)
      expect(await errorCode(f.store.read(hash))).toBe('NOT_FOUND')
      await commit(f, await stageAll(f, [pseudoRandomBytes(100, 6)]))
      expect(await f.store.has(hash)).toBe(false)
      expect(await errorCode(f.store.read(hash))).toBe('NOT_FOUND')
    })

    it('stores a chunk staged again after its commit only once', async () => {
      const f = await open()
      const chunk = pseudoRandomBytes(50_000, 7)
      await commit(f, await stageAll(f, [chunk]))
      const before = await f.footprint()
      const again = await f.store.stage(await idOf(chunk), chunk)
      expect(again.isNew).toBe(false)
      expect(again.storedBytes).toBe(0)
      await commit(f, [again])
      expect(await f.footprint()).toBe(before)
      expect(sameBytes(await f.store.read(await idOf(chunk)), chunk)).toBe(true)
    })

    it('gives a second writer of an uncommitted chunk the ops that make it findable', async () => {
      const f = await open()
      const chunk = pseudoRandomBytes(30_000, 8)
      const first = await f.store.stage(await idOf(chunk), chunk)
      const second = await f.store.stage(await idOf(chunk), chunk)
      expect(first.isNew).toBe(true)
      expect(second.isNew).toBe(false)
      expect(second.storedBytes).toBe(0)
      expect(second.ops.length).toBeGreaterThan(0)
      // Only the second writer's batch commits; the chunk must survive on its ops alone.
      await commit(f, [second])
      const g = await reopen(f)
      expect(sameBytes(await g.store.read(await idOf(chunk)), chunk)).toBe(true)
    })

    it('stores concurrent stages of one hash once', async () => {
      const f = await open()
      const chunk = pseudoRandomBytes(100_000, 9)
      const hash = await idOf(chunk)
      const before = await f.footprint()
      const results = await Promise.all(Array.from({ length: 8 }, () => f.store.stage(hash, chunk)))
      expect(results.filter((r) => r.isNew)).toHaveLength(1)
      expect(results.every((r) => r.ops.length > 0)).toBe(true)
      await commit(f, results)
      const stored = results.reduce((sum, r) => sum + r.storedBytes, 0)
      expect(stored).toBeGreaterThanOrEqual(chunk.length)
      expect((await f.footprint()) - before).toBe(stored)
      expect(sameBytes(await f.store.read(hash), chunk)).toBe(true)
    })

    it('stores compressible chunks in fewer bytes than their size, random ones not', async () => {
      const f = await open()
      const text = prose(64 * 1024, 10)
      const random = pseudoRandomBytes(64 * 1024, 11)
      const [t, r] = await stageAll(f, [text, random])
      expect(t?.storedBytes).toBeLessThan(text.length * 0.9)
      expect(r?.storedBytes).toBeGreaterThanOrEqual(random.length)
      await commit(f, [t as StageResult, r as StageResult])
      const g = await reopen(f)
      expect(sameBytes(await g.store.read(await idOf(text)), text)).toBe(true)
      expect(sameBytes(await g.store.read(await idOf(random)), random)).toBe(true)
    })

    it('refuses to serve a chunk whose stored bytes were damaged', async () => {
      const f = await open()
      const damaged = [pseudoRandomBytes(40_000, 12), prose(40_000, 13)]
      const intact = pseudoRandomBytes(40_000, 14)
      await commit(f, await stageAll(f, [...damaged, intact]))
      for (const c of damaged) await f.corrupt(await idOf(c))
      for (const c of damaged) {
        expect(await errorCode(f.store.read(await idOf(c)))).toBe('CONTENT_CORRUPT')
      }
      expect(sameBytes(await f.store.read(await idOf(intact)), intact)).toBe(true)
      const g = await reopen(f)
      expect(await errorCode(g.store.read(await idOf(damaged[0] as Uint8Array)))).toBe(
        'CONTENT_CORRUPT',
      )
      expect(sameBytes(await g.store.read(await idOf(intact)), intact)).toBe(true)
    })

    it('keeps committed chunks across a reopen, over several groups', async () => {
      let f = await open()
      const groups = [0, 1, 2].map((g) =>
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? prose : pseudoRandomBytes)(5000 + g * 997 + i * 31, g * 10 + i),
        ),
      )
      for (const group of groups) await commit(f, await stageAll(f, group))
      f = await reopen(f)
      for (const c of groups.flat()) {
        expect(await f.store.has(await idOf(c))).toBe(true)
        expect(sameBytes(await f.store.read(await idOf(c)), c)).toBe(true)
      }
      const later = pseudoRandomBytes(20_000, 99)
      await commit(f, await stageAll(f, [later]))
      f = await reopen(f)
      expect(sameBytes(await f.store.read(await idOf(later)), later)).toBe(true)
      expect(sameBytes(await f.store.read(await idOf(groups[0]![0]!)), groups[0]![0]!)).toBe(true)
    })

    it('commits concurrent groups that share flushes', async () => {
      let f = await open()
      const groups = [0, 1, 2, 3].map((g) =>
        Array.from({ length: 5 }, (_, i) => pseudoRandomBytes(3000 + i * 101, 500 + g * 10 + i)),
      )
      await Promise.all(groups.map(async (group) => commit(f, await stageAll(f, group))))
      f = await reopen(f)
      for (const c of groups.flat())
        expect(sameBytes(await f.store.read(await idOf(c)), c)).toBe(true)
    })

    it('forgets chunks whose batch never committed once reopened', async () => {
      const f = await open()
      const kept = pseudoRandomBytes(20_000, 15)
      const lost = pseudoRandomBytes(20_000, 16)
      await commit(f, await stageAll(f, [kept]))
      await f.store.stage(await idOf(lost), lost)
      await f.store.flush()
      const g = await reopen(f)
      expect(await g.store.has(await idOf(lost))).toBe(false)
      expect(await errorCode(g.store.read(await idOf(lost)))).toBe('NOT_FOUND')
      const again = await g.store.stage(await idOf(lost), lost)
      expect(again.isNew).toBe(true)
      await commit(g, [again])
      expect(sameBytes(await g.store.read(await idOf(lost)), lost)).toBe(true)
      expect(sameBytes(await g.store.read(await idOf(kept)), kept)).toBe(true)
    })

    it('answers CLOSED once closed', async () => {
      const f = await open()
      const chunk = pseudoRandomBytes(1000, 17)
      const hash = await idOf(chunk)
      await commit(f, await stageAll(f, [chunk]))
      await f.store.close()
      expect(await errorCode(f.store.read(hash))).toBe('CLOSED')
      expect(await errorCode(f.store.stage(hash, chunk))).toBe('CLOSED')
      expect(await errorCode(f.store.has(hash))).toBe('CLOSED')
      expect(await errorCode(f.store.flush())).toBe('CLOSED')
      expect(await errorCode(listEntries(f.store))).toBe('CLOSED')
      expect(await errorCode(f.store.compact({ commit: async () => undefined }))).toBe('CLOSED')
      expect(() => f.store.removeOps(hash)).toThrow(expect.objectContaining({ code: 'CLOSED' }))
    })

    /**
     * Commits `live` and `dead` interleaved (so stores that group chunks hold both side by
     * side) in a few groups, then removes `dead`; returns the removed hashes.
     */
    async function withRemoved(fixture: ChunkStoreFixture, live: Uint8Array[], dead: Uint8Array[]) {
      const spread = (list: Uint8Array[]) => list.map((c, i) => [i / list.length, c] as const)
      const all = [...spread(live), ...spread(dead)].sort((a, b) => a[0] - b[0]).map(([, c]) => c)
      for (let i = 0; i < all.length; i += 6)
        await commit(fixture, await stageAll(fixture, all.slice(i, i + 6)))
      const removed = await Promise.all(dead.map(idOf))
      await fixture.meta.batch(
        removed.flatMap((h) => fixture.store.removeOps(h)),
        { sync: true },
      )
      return removed
    }

    async function expectState(
      fixture: ChunkStoreFixture,
      live: Uint8Array[],
      removed: Uint8Array[],
    ) {
      for (const c of live) expect(sameBytes(await fixture.store.read(await idOf(c)), c)).toBe(true)
      for (const h of removed) {
        expect(await fixture.store.has(h)).toBe(false)
        expect(await errorCode(fixture.store.read(h))).toBe('NOT_FOUND')
      }
      const listed = (await listEntries(fixture.store)).map((e) => hexOf(e.hash)).sort()
      const expected = (await Promise.all(live.map(idOf))).map(hexOf).sort()
      expect(listed).toEqual(expected)
    }

    /** Mixed sizes, so a tiered store puts some in each tier; shuffled sizes spread packs. */
    const mixed = (count: number, seed: number): Uint8Array[] =>
      Array.from({ length: count }, (_, i) =>
        (i % 3 === 1 ? prose : pseudoRandomBytes)(3000 + ((i * 7919) % 37_000), seed + i),
      )

    it('lists every committed chunk once in entries(), with its stored size, and no uncommitted one', async () => {
      let f = await open()
      const chunks = mixed(14, 200)
      const results = await stageAll(f, chunks)
      await commit(f, results)
      const pending = pseudoRandomBytes(30_000, 230)
      await f.store.stage(await idOf(pending), pending)
      await f.store.flush()
      const sizes = new Map(
        await Promise.all(
          chunks.map(async (c, i) => [hexOf(await idOf(c)), results[i]?.storedBytes] as const),
        ),
      )
      for (const reopened of [false, true]) {
        if (reopened) f = await reopen(f)
        const listed = await listEntries(f.store)
        expect(listed).toHaveLength(chunks.length)
        for (const { hash, storedBytes } of listed) expect(storedBytes).toBe(sizes.get(hexOf(hash)))
        if (f.entriesInHashOrder !== false) {
          const keys = listed.map((e) => Buffer.from(e.hash))
          expect(keys).toEqual([...keys].sort(Buffer.compare))
        }
      }
    })

    it('forgets a removed chunk once the removal commits, and stores it again when staged later', async () => {
      let f = await open()
      const [small, large, kept] = [
        pseudoRandomBytes(2000, 240),
        pseudoRandomBytes(90_000, 241),
        prose(50_000, 242),
      ]
      const removed = await withRemoved(f, [kept], [small, large] as Uint8Array[])
      await expectState(f, [kept], removed)
      // A chunk committed but still staged (committed() not called yet), then removed.
      const fresh = pseudoRandomBytes(40_000, 243)
      const staged = await f.store.stage(await idOf(fresh), fresh)
      await f.meta.batch([...staged.ops, ...(await f.store.flush())], { sync: true })
      await f.meta.batch(f.store.removeOps(await idOf(fresh)), { sync: true })
      expect(await f.store.has(await idOf(fresh))).toBe(false)
      expect(await errorCode(f.store.read(await idOf(fresh)))).toBe('NOT_FOUND')
      f.store.committed()
      // Removing a chunk that was never stored is harmless.
      await f.meta.batch(f.store.removeOps(await idOf(pseudoRandomBytes(10, 244))), { sync: true })
      const again = await stageAll(f, [small, fresh])
      expect(again.every((r) => r.isNew && r.storedBytes > 0)).toBe(true)
      await commit(f, again)
      f = await reopen(f)
      await expectState(f, [kept, small, fresh], [await idOf(large)])
    })

    it('keeps live chunks byte-identical through compaction and a reopen, and frees what it reports', async () => {
      let f = await open()
      const chunks = mixed(36, 300)
      // Every other chunk dies, and so does the whole last third.
      const live = chunks.filter((_, i) => i % 2 === 0 && i < 24)
      const dead = chunks.filter((c) => !live.includes(c))
      const removed = await withRemoved(f, live, dead)
      const before = await f.footprint()
      const { report, commits } = await compactVia(f)
      expect(commits).toBeLessThanOrEqual(1)
      expect(before - (await f.footprint())).toBe(report.reclaimedBytes)
      for (const value of Object.values(report)) expect(value).toBeGreaterThanOrEqual(0)
      await expectState(f, live, removed)
      // A second compaction right away finds nothing more to do.
      const second = await compactVia(f)
      expect(second.commits).toBe(0)
      expect(second.report).toEqual({
        ...report,
        packsRewritten: 0,
        packsRemoved: 0,
        movedBytes: 0,
        reclaimedBytes: 0,
      })
      f = await reopen(f)
      await expectState(f, live, removed)
    })

    it('rejects with ABORTED and changes nothing when the signal has fired', async () => {
      const f = await open()
      const live = mixed(10, 400)
      const removed = await withRemoved(f, live, mixed(20, 420))
      const before = await f.footprint()
      const aborted = new AbortController()
      aborted.abort()
      let commits = 0
      const pending = f.store.compact({
        signal: aborted.signal,
        commit: async () => void commits++,
      })
      expect(await errorCode(pending)).toBe('ABORTED')
      expect(commits).toBe(0)
      expect(await f.footprint()).toBe(before)
      await expectState(f, live, removed)
    })

    it('leaves everything readable when the compaction commit fails', async () => {
      let f = await open()
      const live = mixed(12, 500)
      const removed = await withRemoved(f, live, mixed(24, 520))
      const failure = new Error('commit failed')
      let called = false
      const outcome = await compactVia(f, {}, async () => {
        called = true
        throw failure
      }).then(
        () => 'resolved',
        (err: unknown) => err,
      )
      expect(outcome).toBe(called ? failure : 'resolved')
      await expectState(f, live, removed)
      f = await reopen(f)
      await expectState(f, live, removed)
      await compactVia(f)
      await expectState(f, live, removed)
    })

    it('rejects a minDeadRatio outside [0, 1]', async () => {
      const f = await open()
      for (const minDeadRatio of [-0.1, 1.5, Number.NaN]) {
        await expect(
          f.store.compact({ minDeadRatio, commit: async () => undefined }),
        ).rejects.toThrow(RangeError)
      }
    })

    it('rejects hashes that are not 32 bytes', async () => {
      const f = await open()
      await expect(f.store.stage(new Uint8Array(20), pseudoRandomBytes(10, 18))).rejects.toThrow(
        RangeError,
      )
      await expect(f.store.read(new Uint8Array(33))).rejects.toThrow(RangeError)
    })
  })
}
