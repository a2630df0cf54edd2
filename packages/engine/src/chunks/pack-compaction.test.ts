import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import { PACK_LENGTH_RANGE, parsePackLengthKey } from '../meta/keys'
import type { KeyOf, MetaStore, RangeOptions, Space } from '../meta/meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import type { CompactOptions, CompactReport } from './chunk-store'
import { RECORD_HEADER_LENGTH, decodeChunkRecordHeader } from './chunk-record'
import { packFileName } from './pack-file'
import { decodePackLength, decodePackLocation } from './pack-location'
import {
  cleanUpPackFixtures,
  newPackDir,
  openPackFixture,
} from '../../test/support/pack-store-fixture'
import type { PackFixture, PackFixtureOptions } from '../../test/support/pack-store-fixture'

afterEach(cleanUpPackFixtures)

const LIMIT = 256 * 1024
const hasher = await createHasher('sha256')
const id = (bytes: Uint8Array): Uint8Array => hasher.hashDomain('chunk', bytes)
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const sum = (values: Iterable<number>): number => [...values].reduce((a, b) => a + b, 0)

async function commitChunks(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  const staged = await Promise.all(chunks.map((c) => f.store.stage(id(c), c)))
  await f.meta.batch([...staged.flatMap((s) => s.ops), ...(await f.store.flush())], { sync: true })
  f.store.committed()
}

async function removeChunks(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  await f.meta.batch(
    chunks.flatMap((c) => f.store.removeOps(id(c))),
    { sync: true },
  )
}

function compact(
  f: PackFixture,
  options: Omit<CompactOptions, 'commit'> = {},
): Promise<CompactReport> {
  return f.store.compact({ ...options, commit: (ops) => f.meta.batch(ops, { sync: true }) })
}

async function expectReads(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  for (const c of chunks) expect(Buffer.compare(await f.store.read(id(c)), c)).toBe(0)
}

async function expectGone(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  for (const c of chunks) {
    const err = await f.store.read(id(c)).catch((e: unknown) => e)
    expect(isEngineError(err, 'NOT_FOUND')).toBe(true)
  }
}

/** The chunk index and the committed pack lengths, as hex, to compare before and after. */
async function metaSnapshot(f: PackFixture): Promise<string[]> {
  const rows: string[] = []
  for await (const [k, v] of f.meta.iterate('chunkidx')) rows.push(`${hex(k)}=${hex(v)}`)
  for await (const [k, v] of f.meta.iterate('meta', PACK_LENGTH_RANGE)) rows.push(`${k}=${hex(v)}`)
  return rows
}

/** Bytes of the records the index points at. */
async function liveBytes(f: PackFixture): Promise<number> {
  let total = 0
  for await (const [, v] of f.meta.iterate('chunkidx')) {
    total += RECORD_HEADER_LENGTH + decodePackLocation(v).storedLength
  }
  return total
}

/** Committed pack lengths, by pack file name. */
async function committedLengths(f: PackFixture): Promise<Map<string, number>> {
  const lengths = new Map<string, number>()
  for await (const [key, value] of f.meta.iterate('meta', PACK_LENGTH_RANGE)) {
    lengths.set(packFileName(parsePackLengthKey(key) as number), decodePackLength(value))
  }
  return lengths
}

/**
 * About nine packs of ~7 chunks; the first 14 chunks all die (whole packs without a live
 * record) and two of every three after them (packs two thirds dead).
 */
async function scenario(f: PackFixture): Promise<{ live: Uint8Array[]; dead: Uint8Array[] }> {
  const chunks = Array.from({ length: 60 }, (_, i) =>
    pseudoRandomBytes(20_000 + ((i * 7919) % 30_000), 1000 + i),
  )
  for (let i = 0; i < chunks.length; i += 8) await commitChunks(f, chunks.slice(i, i + 8))
  const live = chunks.filter((_, i) => i >= 14 && i % 3 === 0)
  const dead = chunks.filter((c) => !live.includes(c))
  await removeChunks(f, dead)
  return { live, dead }
}

/** A live chunk in a pack at least half dead, other than the last: compaction moves it. */
async function movable(f: PackFixture, live: Uint8Array[]): Promise<Uint8Array> {
  const usage = new Map<number, number>()
  for await (const [, v] of f.meta.iterate('chunkidx')) {
    const { pack, storedLength } = decodePackLocation(v)
    usage.set(pack, (usage.get(pack) ?? 0) + RECORD_HEADER_LENGTH + storedLength)
  }
  const sizes = await f.packSizes()
  const last = Math.max(...[...usage.keys()])
  for (const c of live) {
    const { pack } = await f.location(id(c))
    const size = sizes.get(packFileName(pack)) as number
    if (pack !== last && (usage.get(pack) as number) <= size / 2) return c
  }
  throw new Error('no live chunk in a pack to rewrite')
}

async function open(options: PackFixtureOptions = {}): Promise<PackFixture> {
  return openPackFixture(await newPackDir(), { packSizeLimit: LIMIT, ...options })
}

/** A gate: `wait()` blocks until `open()`; `reached` resolves when something first waits. */
function gate() {
  let release!: () => void
  let arrived!: () => void
  const opened = new Promise<void>((r) => (release = r))
  const reached = new Promise<void>((r) => (arrived = r))
  return {
    reached,
    open: () => release(),
    wait: () => {
      arrived()
      return opened
    },
  }
}

interface Gates {
  get?: (() => Promise<void>) | undefined
  scan?: (() => Promise<void>) | undefined
  getMany?: (() => Promise<void>) | undefined
}

/** Metadata whose next `chunkidx` lookup, scan or `getMany` waits at a gate, once armed. */
function gatedMeta(meta: MetaStore, gates: Gates) {
  return {
    ...meta,
    async getMany<S extends Space>(space: S, keys: readonly KeyOf<S>[]) {
      const wait = gates.getMany
      gates.getMany = undefined
      await wait?.()
      return meta.getMany(space, keys)
    },
    async get<S extends Space>(space: S, key: KeyOf<S>) {
      const value = await meta.get(space, key)
      const wait = space === 'chunkidx' ? gates.get : undefined
      gates.get = undefined
      await wait?.()
      return value
    },
    iterate<S extends Space>(space: S, range?: RangeOptions<KeyOf<S>>) {
      const wait = space === 'chunkidx' ? gates.scan : undefined
      if (wait !== undefined) gates.scan = undefined
      return {
        async *[Symbol.asyncIterator]() {
          await wait?.()
          yield* meta.iterate(space, range)
        },
      }
    },
  } as MetaStore
}

describe('pack compaction', () => {
  it('shrinks the pack directory on disk by what it reports', async () => {
    const f = await open()
    await scenario(f)
    const before = await f.packSizes()
    const report = await compact(f)
    const after = await f.packSizes()
    expect(report.packsRewritten).toBeGreaterThan(0)
    expect(report.packsRemoved).toBeGreaterThan(report.packsRewritten)
    expect(after.size).toBeLessThan(before.size)
    expect(sum(before.values()) - sum(after.values())).toBe(report.reclaimedBytes)
    expect(sum(after.values())).toBeLessThan(sum(before.values()) * 0.5)
    // What is left dead: files minus the live records, in the active pack only.
    expect(report.deadBytes).toBe(sum(after.values()) - (await liveBytes(f)))
    expect(report.deadBytes).toBeGreaterThan(0)
    // Every pack left has its whole size committed; the removed ones have no length left.
    expect(await committedLengths(f)).toEqual(after)
  })

  it('reads every live chunk back byte-identical after compaction and after reopening', async () => {
    let f = await open()
    const { live, dead } = await scenario(f)
    const packsBefore = new Map(
      await Promise.all(live.map(async (c) => [c, (await f.location(id(c))).pack] as const)),
    )
    const report = await compact(f)
    const moved = []
    for (const c of live) if ((await f.location(id(c))).pack !== packsBefore.get(c)) moved.push(c)
    expect(sum(moved.map((c) => RECORD_HEADER_LENGTH + c.length))).toBe(report.movedBytes)
    await expectReads(f, live)
    await expectGone(f, dead)
    f = await f.reopen()
    expect(f.store.recovery).toMatchObject({ truncatedBytes: 0, damaged: [] })
    await expectReads(f, live)
    await expectGone(f, dead)
    const later = pseudoRandomBytes(30_000, 7)
    await commitChunks(f, [later])
    f = await f.reopen()
    await expectReads(f, [...live, later])
  })

  it('serves a read that looked its chunk up before the compaction moved it', async () => {
    const gates: Gates = {}
    const f = await open({ wrapMeta: (meta) => gatedMeta(meta, gates) })
    const { live } = await scenario(f)
    const target = await movable(f, live)
    const from = (await f.location(id(target))).pack
    const held = gate()
    gates.get = held.wait
    const reading = f.store.read(id(target))
    await held.reached // the lookup found the old location and waits
    await compact(f)
    expect((await f.location(id(target))).pack).not.toBe(from)
    expect((await f.packSizes()).has(packFileName(from))).toBe(false)
    held.open()
    expect(Buffer.compare(await reading, target)).toBe(0)
  })

  it('lets reads and writes running during compaction all succeed', async () => {
    let f = await open()
    const { live } = await scenario(f)
    let running = true
    let reads = 0
    const readers = Array.from({ length: 4 }, async (_, r) => {
      while (running) {
        for (const c of r % 2 ? live : [...live].reverse()) {
          expect(Buffer.compare(await f.store.read(id(c)), c)).toBe(0)
          reads++
        }
      }
    })
    const written: Uint8Array[] = []
    const writes: Promise<void>[] = []
    const report = await compact(f, {
      onProgress: () => {
        const chunk = pseudoRandomBytes(25_000, 5000 + written.length)
        written.push(chunk)
        writes.push(commitChunks(f, [chunk]))
      },
    })
    await Promise.all(writes)
    // Keep reading a little after the old packs went, so reads of them overlap their removal.
    await new Promise((r) => setTimeout(r, 20))
    running = false
    await Promise.all(readers)
    expect(report.packsRewritten).toBeGreaterThan(1)
    expect(written.length).toBeGreaterThan(1)
    expect(reads).toBeGreaterThan(live.length * 4)
    await expectReads(f, [...live, ...written])
    f = await f.reopen()
    await expectReads(f, [...live, ...written])
  })

  it('leaves the index and every pack unchanged when aborted mid-copy', async () => {
    let f = await open()
    const { live, dead } = await scenario(f)
    const meta = await metaSnapshot(f)
    const files = await f.packSizes()
    const aborter = new AbortController()
    let commits = 0
    let progress = 0
    const outcome = await f.store
      .compact({
        signal: aborter.signal,
        onProgress: (done, total) => {
          progress++
          if (done > 0 && done < total) aborter.abort()
        },
        commit: async () => void commits++,
      })
      .catch((e: unknown) => e)
    expect(isEngineError(outcome, 'ABORTED')).toBe(true)
    expect(progress).toBe(2)
    expect(commits).toBe(0)
    expect(await metaSnapshot(f)).toEqual(meta)
    const filesAfter = await f.packSizes()
    for (const [name, size] of files) expect(filesAfter.get(name)).toBe(size)
    expect(filesAfter.size).toBe(files.size + 1) // the abandoned copies
    await expectReads(f, live)
    await expectGone(f, dead)
    f = await f.reopen()
    expect(await metaSnapshot(f)).toEqual(meta)
    await expectReads(f, live)
    // The next compaction goes through and takes the abandoned copies with it.
    const final = await compact(f)
    expect(final.packsRemoved).toBeGreaterThan(0)
    expect(sum((await f.packSizes()).values())).toBe((await liveBytes(f)) + final.deadBytes)
    await expectReads(f, live)
  })

  it('removes packs a crash left between the commit and their deletion', async () => {
    let f = await open()
    const { live, dead } = await scenario(f)
    const backup = join(f.packsDir, '..', 'backup')
    await mkdir(backup)
    for (const name of await readdir(f.packsDir))
      await copyFile(join(f.packsDir, name), join(backup, name))
    const first = await compact(f)
    await f.close()
    // Put the deleted packs back: their length keys are gone and no entry points into them.
    const remaining = new Set(await readdir(f.packsDir))
    const orphans = (await readdir(backup)).filter((name) => !remaining.has(name))
    expect(orphans).toHaveLength(first.packsRemoved)
    for (const name of orphans) await copyFile(join(backup, name), join(f.packsDir, name))
    // One more, small and with the highest id: it must not become the pack appended to.
    const orphan = await readFile(join(backup, orphans[0] as string))
    const firstRecord = RECORD_HEADER_LENGTH + decodeChunkRecordHeader(orphan).storedLength
    await writeFile(join(f.packsDir, packFileName(99)), orphan.subarray(0, firstRecord))
    orphans.push(packFileName(99))
    f = await f.reopen()
    expect(f.store.recovery).toMatchObject({ truncatedBytes: 0, damaged: [] })
    await expectReads(f, live)
    await expectGone(f, dead)
    const fresh = pseudoRandomBytes(3000, 9)
    await commitChunks(f, [fresh])
    expect(orphans).not.toContain(packFileName((await f.location(id(fresh))).pack))
    const second = await compact(f)
    expect(second.packsRemoved).toBeGreaterThanOrEqual(orphans.length)
    const left = new Set(await readdir(f.packsDir))
    for (const name of orphans) expect(left.has(name)).toBe(false)
    f = await f.reopen()
    await expectReads(f, [...live, fresh])
  })

  it('leaves a pack holding a record staged when compact() was called', async () => {
    const f = await open()
    const early = Array.from({ length: 5 }, (_, i) => pseudoRandomBytes(40_000, 100 + i))
    await commitChunks(f, early)
    await removeChunks(f, early.slice(0, 4))
    // Staged, not committed: one record in pack 1, then one that opens pack 2.
    const staged = [pseudoRandomBytes(40_000, 110), pseudoRandomBytes(100_000, 111)]
    const results = await Promise.all(staged.map((c) => f.store.stage(id(c), c)))
    expect((await compact(f)).packsRemoved).toBe(0)
    await f.meta.batch([...results.flatMap((r) => r.ops), ...(await f.store.flush())], {
      sync: true,
    })
    await expectReads(f, [...staged, early[4] as Uint8Array])
  })

  it('leaves a pack written to after compact() was called', async () => {
    const gates: Gates = {}
    const f = await open({ wrapMeta: (meta) => gatedMeta(meta, gates) })
    const early = Array.from({ length: 5 }, (_, i) => pseudoRandomBytes(40_000, 200 + i))
    await commitChunks(f, early)
    await removeChunks(f, early.slice(0, 4))
    const held = gate()
    gates.scan = held.wait
    const compacting = compact(f)
    await held.reached
    // While the compaction waits to scan: a record lands in pack 1, then pack 1 fills up.
    const late = pseudoRandomBytes(40_000, 210)
    const result = await f.store.stage(id(late), late)
    await commitChunks(f, [pseudoRandomBytes(100_000, 211)])
    held.open()
    expect((await compacting).packsRemoved).toBe(0)
    await f.meta.batch([...result.ops, ...(await f.store.flush())], { sync: true })
    await expectReads(f, [late, early[4] as Uint8Array])
  })

  it('does not bring back a chunk removed while the compaction copies it', async () => {
    const gates: Gates = {}
    const f = await open({ wrapMeta: (meta) => gatedMeta(meta, gates) })
    const { live } = await scenario(f)
    const victim = await movable(f, live)
    const from = (await f.location(id(victim))).pack
    const report = await compact(f, {
      onProgress: (done) => {
        // The removal commits after the copies were planned, before they are re-checked.
        if (done === 0) {
          const removal = removeChunks(f, [victim])
          gates.getMany = () => removal
        }
      },
    })
    expect(report.packsRewritten).toBeGreaterThan(0)
    expect((await f.packSizes()).has(packFileName(from))).toBe(false)
    expect(await f.store.has(id(victim))).toBe(false)
    // Its copy is dead weight in the new pack, and counted so.
    expect(report.deadBytes).toBe(sum((await f.packSizes()).values()) - (await liveBytes(f)))
    await expectReads(
      f,
      live.filter((c) => c !== victim),
    )
  })

  it('leaves a pack whose live record fails its check, and keeps it unreadable', async () => {
    const f = await open()
    const { live } = await scenario(f)
    const damaged = await movable(f, live)
    const from = (await f.location(id(damaged))).pack
    await f.corrupt(id(damaged))
    const report = await compact(f)
    expect(report.packsRewritten).toBeGreaterThan(0)
    expect((await f.location(id(damaged))).pack).toBe(from)
    expect(report.deadBytes).toBe(sum((await f.packSizes()).values()) - (await liveBytes(f)))
    const err = await f.store.read(id(damaged)).catch((e: unknown) => e)
    expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
    await expectReads(
      f,
      live.filter((c) => c !== damaged),
    )
  })

  it('stops with CLOSED when the store closes mid-copy, leaving the index as it was', async () => {
    let f = await open()
    const { live } = await scenario(f)
    const meta = await metaSnapshot(f)
    let closing: Promise<void> | undefined
    const outcome = await f.store
      .compact({
        onProgress: (done) => void (done > 0 && (closing ??= f.store.close())),
        commit: () => Promise.reject(new Error('must not commit')),
      })
      .catch((e: unknown) => e)
    await closing
    expect(isEngineError(outcome, 'CLOSED')).toBe(true)
    f = await f.reopen()
    expect(await metaSnapshot(f)).toEqual(meta)
    await expectReads(f, live)
  })
})
