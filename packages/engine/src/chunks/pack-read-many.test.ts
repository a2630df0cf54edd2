import { afterEach, describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import type { MetaOp } from '../meta/meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import { nodePackFileSystem } from './pack-file-system'
import type { PackFileHandle, PackFileSystem } from './pack-file-system'
import { packRuns } from './pack-read-runs'
import {
  cleanUpPackFixtures,
  newPackDir,
  openPackFixture,
} from '../../test/support/pack-store-fixture'
import type { PackFixture } from '../../test/support/pack-store-fixture'

afterEach(cleanUpPackFixtures)

const hasher = await createHasher('sha256')
const id = (bytes: Uint8Array): Uint8Array => hasher.hashDomain('chunk', bytes)

/** The node file system, counting positional reads of pack files. */
function countingFiles(): { files: PackFileSystem; reads: () => number } {
  let reads = 0
  const counted = (handle: PackFileHandle): PackFileHandle => ({
    writev: (buffers, position) => handle.writev(buffers, position),
    size: () => handle.size(),
    datasync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
    close: () => handle.close(),
    read(buffer, offset, length, position) {
      reads++
      return handle.read(buffer, offset, length, position)
    },
  })
  const files: PackFileSystem = {
    ...nodePackFileSystem,
    open: async (path) => counted(await nodePackFileSystem.open(path)),
    create: async (path) => counted(await nodePackFileSystem.create(path)),
  }
  return { files, reads: () => reads }
}

/** Stages one chunk after the other (so their records sit back to back) and commits them. */
async function storeInOrder(f: PackFixture, chunks: Uint8Array[]): Promise<void> {
  const ops: MetaOp[] = []
  for (const chunk of chunks) ops.push(...(await f.store.stage(id(chunk), chunk)).ops)
  await f.meta.batch([...ops, ...(await f.store.flush())], { sync: true })
  f.store.committed()
}

async function codeOf(pending: Promise<unknown>): Promise<string> {
  const err = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  return isEngineError(err) ? err.code : String(err)
}

describe('packRuns', () => {
  const at = (pack: number, offset: number, storedLength: number) => ({
    pack,
    offset,
    storedLength,
    codec: 0,
    rawLength: storedLength,
  })
  const record = (stored: number) => RECORD_HEADER_LENGTH + stored

  it('joins records that follow each other in one pack and splits at gaps and other packs', () => {
    const runs = packRuns([
      at(1, 0, 100),
      at(1, record(100), 50),
      at(1, record(100) + record(50) + 7, 10),
      at(2, 0, 10),
    ])
    expect(runs.map((r) => [r.pack, r.offset, r.length, r.items])).toEqual([
      [1, 0, record(100) + record(50), [0, 1]],
      [1, record(100) + record(50) + 7, record(10), [2]],
      [2, 0, record(10), [3]],
    ])
  })

  it('keeps the caller order: a record asked before its predecessor starts a new run', () => {
    expect(packRuns([at(1, record(10), 10), at(1, 0, 10)]).map((r) => r.items)).toEqual([[0], [1]])
  })

  it('closes a run before it would pass the byte limit', () => {
    const runs = packRuns([at(1, 0, 100), at(1, record(100), 100)], record(100) + 1)
    expect(runs.map((r) => r.items)).toEqual([[0], [1]])
  })
})

describe('pack-chunk-store readMany', () => {
  it('reads chunks stored back to back with one read, in the order asked', async () => {
    const counter = countingFiles()
    const f = await openPackFixture(await newPackDir(), { files: counter.files })
    const chunks = Array.from({ length: 6 }, (_, i) => pseudoRandomBytes(40_000 + i, 100 + i))
    await storeInOrder(f, chunks)
    const before = counter.reads()
    const read = await f.store.readMany?.(chunks.map(id))
    expect(counter.reads() - before).toBe(1)
    expect(read?.map((bytes, i) => Buffer.compare(bytes, chunks[i] as Uint8Array))).toEqual(
      chunks.map(() => 0),
    )
    // Out of file order: still right, in the order asked.
    const reversed = [...chunks].reverse()
    const back = await f.store.readMany?.(reversed.map(id))
    expect(back?.every((bytes, i) => Buffer.compare(bytes, reversed[i] as Uint8Array) === 0)).toBe(
      true,
    )
  })

  it('returns raw chunks of one run back to back in one buffer, inflated ones on their own', async () => {
    const f = await openPackFixture(await newPackDir())
    const text = new TextEncoder().encode('compressible text '.repeat(3_000))
    const chunks = [
      pseudoRandomBytes(30_000, 500),
      pseudoRandomBytes(31_000, 501),
      text,
      pseudoRandomBytes(32_000, 502),
      pseudoRandomBytes(33_000, 503),
    ]
    await storeInOrder(f, chunks)
    expect((await f.location(id(text))).codec).not.toBe(0)
    const read = (await f.store.readMany?.(chunks.map(id))) as Uint8Array[]
    expect(read.map((bytes, i) => Buffer.compare(bytes, chunks[i] as Uint8Array))).toEqual(
      chunks.map(() => 0),
    )
    const follows = (a: Uint8Array, b: Uint8Array) =>
      a.buffer === b.buffer && a.byteOffset + a.length === b.byteOffset
    const [a, b, inflated, d, e] = read as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ]
    expect([follows(a, b), follows(d, e)]).toEqual([true, true])
    expect(inflated.buffer).not.toBe(a.buffer)
    expect(follows(b, d)).toBe(false)
  })

  it('fails the whole read with CONTENT_CORRUPT when one record of a run is damaged', async () => {
    const f = await openPackFixture(await newPackDir())
    const chunks = Array.from({ length: 3 }, (_, i) => pseudoRandomBytes(30_000, 200 + i))
    await storeInOrder(f, chunks)
    await f.corrupt(id(chunks[1] as Uint8Array))
    expect(await codeOf(f.store.readMany?.(chunks.map(id)) ?? Promise.resolve())).toBe(
      'CONTENT_CORRUPT',
    )
    // The undamaged ones still read.
    const fine = [chunks[0], chunks[2]] as Uint8Array[]
    const read = await f.store.readMany?.(fine.map(id))
    expect(read?.map((b, i) => Buffer.compare(b, fine[i] as Uint8Array))).toEqual([0, 0])
  })

  it('fails with NOT_FOUND when a chunk is not stored, and reads staged chunks before their commit', async () => {
    const f = await openPackFixture(await newPackDir())
    const stored = pseudoRandomBytes(20_000, 300)
    await storeInOrder(f, [stored])
    const absent = pseudoRandomBytes(20_000, 301)
    expect(await codeOf(f.store.readMany?.([id(stored), id(absent)]) ?? Promise.resolve())).toBe(
      'NOT_FOUND',
    )
    const staged = pseudoRandomBytes(20_000, 302)
    await f.store.stage(id(staged), staged)
    const read = await f.store.readMany?.([id(staged), id(stored)])
    expect(read?.map((b, i) => Buffer.compare(b, [staged, stored][i] as Uint8Array))).toEqual([
      0, 0,
    ])
  })

  it('remembers chunk locations, and finds records again after compaction moved them', async () => {
    let indexReads = 0
    const f = await openPackFixture(await newPackDir(), {
      packSizeLimit: 100_000,
      wrapMeta: (meta) => ({
        ...meta,
        getMany: (space, keys) => {
          if (space === 'chunkidx') indexReads++
          return meta.getMany(space, keys)
        },
      }),
    })
    const kept = Array.from({ length: 3 }, (_, i) => pseudoRandomBytes(20_000, 400 + i))
    const dropped = Array.from({ length: 3 }, (_, i) => pseudoRandomBytes(20_000, 410 + i))
    await storeInOrder(f, [...kept, ...dropped])
    const check = async () => {
      const read = await f.store.readMany?.(kept.map(id))
      expect(read?.map((b, i) => Buffer.compare(b, kept[i] as Uint8Array))).toEqual([0, 0, 0])
    }
    await check()
    expect(indexReads).toBe(1)
    await check()
    expect(indexReads).toBe(1)
    // Drop half of the pack and compact: the kept records move to a new pack.
    await f.meta.batch(
      dropped.flatMap((c) => f.store.removeOps(id(c))),
      { sync: true },
    )
    const before = (await f.location(id(kept[0] as Uint8Array))).pack
    await f.store.compact({ commit: (ops) => f.meta.batch(ops, { sync: true }), minDeadRatio: 0.1 })
    expect((await f.location(id(kept[0] as Uint8Array))).pack).not.toBe(before)
    await check()
    expect(
      await codeOf(f.store.readMany?.([id(dropped[0] as Uint8Array)]) ?? Promise.resolve()),
    ).toBe('NOT_FOUND')
  })
})
