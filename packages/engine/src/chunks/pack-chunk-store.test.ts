import { appendFile, readdir, rm, stat, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import type { MetaOp } from '../meta/meta-store'
import { runChunkStoreConformance } from '../testing/chunk-store-conformance'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import { packFileName } from './pack-file'
import {
  cleanUpPackFixtures,
  flipByte,
  newPackDir as newDir,
  openPackFixture,
} from '../../test/support/pack-store-fixture'
import type { PackFixture } from '../../test/support/pack-store-fixture'

afterEach(cleanUpPackFixtures)

const packFixture = openPackFixture

runChunkStoreConformance('pack (classic-level)', async () => packFixture(await newDir()))
// Small packs, so compaction has whole packs to rewrite and remove.
runChunkStoreConformance('pack (classic-level, 64 KiB packs)', async () =>
  packFixture(await newDir(), { packSizeLimit: 64 * 1024 }),
)

const hasher = await createHasher('sha256')

const id = (bytes: Uint8Array): Uint8Array => hasher.hashDomain('chunk', bytes)

async function stageAndCommit(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  const staged = await Promise.all(chunks.map((c) => f.store.stage(id(c), c)))
  const ops: MetaOp[] = [...staged.flatMap((s) => s.ops), ...(await f.store.flush())]
  await f.meta.batch(ops, { sync: true })
  f.store.committed()
}

async function expectReads(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  for (const c of chunks) expect(Buffer.compare(await f.store.read(id(c)), c)).toBe(0)
}

async function codeOf(pending: Promise<unknown>): Promise<string> {
  const err = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  return isEngineError(err) ? err.code : String(err)
}

const pack1 = (f: PackFixture): string => join(f.packsDir, packFileName(1))

describe('pack-chunk-store', () => {
  it('cuts garbage appended after the last committed record on reopen', async () => {
    let f = await packFixture(await newDir())
    const committed = [pseudoRandomBytes(30_000, 1), pseudoRandomBytes(30_000, 2)]
    await stageAndCommit(f, committed)
    const size = (await stat(pack1(f))).size
    await f.close()
    await appendFile(pack1(f), pseudoRandomBytes(5000, 3))
    f = await f.reopen()
    expect(f.store.recovery.truncatedBytes).toBe(5000)
    expect((await stat(pack1(f))).size).toBe(size)
    await expectReads(f, committed)
    const fresh = [pseudoRandomBytes(10_000, 4)]
    await stageAndCommit(f, fresh)
    f = await f.reopen()
    expect(f.store.recovery.truncatedBytes).toBe(0)
    await expectReads(f, [...committed, ...fresh])
  })

  it('cuts a record torn in the middle by a crash, keeping everything committed', async () => {
    let f = await packFixture(await newDir())
    const committed = [pseudoRandomBytes(40_000, 5)]
    await stageAndCommit(f, committed)
    const committedSize = (await stat(pack1(f))).size
    const torn = pseudoRandomBytes(40_000, 6)
    await f.store.stage(id(torn), torn)
    await f.store.flush() // durable bytes, but the batch indexing them never commits
    await f.close()
    await truncate(pack1(f), committedSize + RECORD_HEADER_LENGTH + 1000)
    f = await f.reopen()
    expect(f.store.recovery.truncatedBytes).toBe(RECORD_HEADER_LENGTH + 1000)
    expect((await stat(pack1(f))).size).toBe(committedSize)
    await expectReads(f, committed)
    expect(await f.store.has(id(torn))).toBe(false)
    await stageAndCommit(f, [torn])
    f = await f.reopen()
    await expectReads(f, [...committed, torn])
  })

  it('keeps whole records past the committed length and cuts only what follows them', async () => {
    let f = await packFixture(await newDir())
    await stageAndCommit(f, [pseudoRandomBytes(10_000, 7)])
    const whole = pseudoRandomBytes(10_000, 8)
    await f.store.stage(id(whole), whole)
    await f.store.flush()
    const withRecord = (await stat(pack1(f))).size
    await f.close()
    await appendFile(pack1(f), new Uint8Array(700))
    f = await f.reopen()
    expect(f.store.recovery.truncatedBytes).toBe(700)
    expect((await stat(pack1(f))).size).toBe(withRecord)
  })

  it('records each flushed pack length in the meta space', async () => {
    const f = await packFixture(await newDir())
    const chunk = pseudoRandomBytes(5000, 9)
    await f.store.stage(id(chunk), chunk)
    const ops = await f.store.flush()
    expect(ops).toHaveLength(1)
    expect(ops[0]).toMatchObject({ type: 'put', space: 'meta', key: 'pack.000001' })
    expect(await f.store.flush()).toEqual([])
  })

  it('lets callers arriving during a flush share the next one', async () => {
    const f = await packFixture(await newDir())
    const early = pseudoRandomBytes(5000, 10)
    await f.store.stage(id(early), early)
    const first = f.store.flush()
    const second = f.store.flush()
    const third = f.store.flush()
    expect(third).toBe(second)
    expect(second).not.toBe(first)
    const [a, b] = await Promise.all([first, second])
    expect(a).toHaveLength(1)
    expect(b).toEqual([])
    const late = pseudoRandomBytes(5000, 11)
    await f.store.stage(id(late), late)
    const [c] = await Promise.all([f.store.flush(), f.store.flush()])
    expect(c).toHaveLength(1)
    expect(c[0]).toMatchObject({ space: 'meta', key: 'pack.000001' })
  })

  it('rotates to a new pack at the size limit and reads across packs', async () => {
    const dir = await newDir()
    let f = await packFixture(dir, { packSizeLimit: 100_000 })
    const chunks = Array.from({ length: 24 }, (_, i) => pseudoRandomBytes(15_000 + i, 20 + i))
    for (let i = 0; i < chunks.length; i += 6) await stageAndCommit(f, chunks.slice(i, i + 6))
    const big = pseudoRandomBytes(150_000, 99) // larger than the limit: a pack of its own
    await stageAndCommit(f, [big])
    const names = (await readdir(f.packsDir)).sort()
    expect(names.length).toBeGreaterThanOrEqual(5)
    expect(names[0]).toBe('pack-000001.pack')
    for (const name of names) {
      const { size } = await stat(join(f.packsDir, name))
      expect(size <= 100_000 || size === RECORD_HEADER_LENGTH + big.length).toBe(true)
    }
    f = await f.reopen()
    await expectReads(f, [...chunks, big])
    const packsUsed = new Set(
      await Promise.all(chunks.map(async (c) => (await f.location(id(c))).pack)),
    )
    expect(packsUsed.size).toBeGreaterThanOrEqual(4)
  })

  it('detects a flipped byte on disk, in the stored bytes or the header', async () => {
    const f = await packFixture(await newDir())
    const body = pseudoRandomBytes(20_000, 30)
    const header = pseudoRandomBytes(20_000, 31)
    await stageAndCommit(f, [body, header])
    const bodyAt = await f.location(id(body))
    const headerAt = await f.location(id(header))
    await flipByte(pack1(f), bodyAt.offset + RECORD_HEADER_LENGTH + 19_999)
    await flipByte(pack1(f), headerAt.offset + 10) // inside the record's hash
    expect(await codeOf(f.store.read(id(body)))).toBe('CONTENT_CORRUPT')
    expect(await codeOf(f.store.read(id(header)))).toBe('CONTENT_CORRUPT')
  })

  it('reports a pack shorter than its committed length and never appends to it', async () => {
    let f = await packFixture(await newDir())
    const early = pseudoRandomBytes(20_000, 40)
    const lost = pseudoRandomBytes(20_000, 41)
    await stageAndCommit(f, [early])
    await stageAndCommit(f, [lost])
    const size = (await stat(pack1(f))).size
    await f.close()
    await truncate(pack1(f), size - 100)
    f = await f.reopen()
    expect(f.store.recovery.damaged).toEqual([
      { pack: 1, committedLength: size, actualLength: size - 100 },
    ])
    expect((await stat(pack1(f))).size).toBe(size - 100)
    await expectReads(f, [early])
    expect(await codeOf(f.store.read(id(lost)))).toBe('CONTENT_CORRUPT')
    const fresh = pseudoRandomBytes(5000, 42)
    await stageAndCommit(f, [fresh])
    expect((await f.location(id(fresh))).pack).toBe(2)
    await expectReads(f, [fresh])
  })

  it('reports a missing pack file and fails its reads with CONTENT_CORRUPT', async () => {
    let f = await packFixture(await newDir(), { packSizeLimit: 30_000 })
    const a = pseudoRandomBytes(20_000, 50)
    const b = pseudoRandomBytes(20_000, 51)
    await stageAndCommit(f, [a])
    await stageAndCommit(f, [b])
    await f.close()
    await rm(pack1(f))
    f = await f.reopen()
    expect(f.store.recovery.damaged.map((d) => [d.pack, d.actualLength])).toEqual([[1, 0]])
    expect(await codeOf(f.store.read(id(a)))).toBe('CONTENT_CORRUPT')
    await expectReads(f, [b])
  })
})
