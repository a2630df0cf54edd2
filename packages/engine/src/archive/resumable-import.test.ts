import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import type { Database } from '../database'
import { toHex } from '../internal/hex'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { concat } from '../../test/support/archive-samples'

async function bytesOf(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  return concat(await collect(stream))
}

async function hexIds(stream: AsyncIterable<Uint8Array>): Promise<string[]> {
  return (await collect(stream)).map(toHex)
}

/** The ids among `ids` that `db` holds. */
async function held(db: Database, ids: string[]): Promise<string[]> {
  const missing = new Set(await db.missingChunks(ids))
  return ids.filter((id) => !missing.has(id))
}

const raw = (ids: string[]) => ids.map((id) => Buffer.from(id, 'hex'))

describe('archives that leave out what the receiver holds', () => {
  let a: Database
  let b: Database
  beforeEach(async () => {
    a = (await openMemoryDatabase()).db
    b = (await openMemoryDatabase()).db
  })
  afterEach(async () => {
    await a.close()
    await b.close()
  })

  it('lists the chunks an export or a patch carries, without sending them', async () => {
    await a.writeFile('/one.bin', pseudoRandomBytes(400_000, 1))
    const v1 = a.head()
    await a.writeFile('/two.bin', pseudoRandomBytes(200_000, 2))
    const all = await hexIds(a.archiveChunkIds())
    const patch = await hexIds(a.archiveChunkIds({ from: v1 }))
    expect(new Set(all).size).toBe(all.length)
    expect(patch.length).toBeGreaterThan(0)
    expect(patch.length).toBeLessThan(all.length)
    expect(all).toEqual(expect.arrayContaining(patch))
    // The same counts an import finds in the archives themselves.
    const first = await b.importArchive(await bytesOf(a.exportArchive({ version: v1 })), {
      promote: true,
    })
    expect(first.chunksImported).toBe(all.length - patch.length)
    const applied = await b.importArchive(await bytesOf(a.diffArchive({ from: v1 })))
    expect(applied.chunksImported).toBe(patch.length)
    expect(await hexIds(a.archiveChunkIds({ from: a.head() }))).toEqual([])
  })

  it('skips the chunks named, and the receiver that holds them imports the smaller archive', async () => {
    const shared = pseudoRandomBytes(600_000, 7)
    await a.writeFile('/data/shared.bin', shared)
    await a.writeFile('/data/own.bin', pseudoRandomBytes(100_000, 8))
    await b.writeFile('/elsewhere/same.bin', shared)
    const ids = await hexIds(a.archiveChunkIds())
    const have = await held(b, ids)
    expect(have.length).toBeGreaterThan(0)
    expect(have.length).toBeLessThan(ids.length)

    const whole = await bytesOf(a.exportArchive())
    const lean = await bytesOf(a.exportArchive({ skipChunks: raw(have) }))
    expect(whole.length - lean.length).toBeGreaterThanOrEqual(590_000)
    const result = await b.importArchive(lean, { promote: true })
    expect(result.versionHash).toBe(a.head())
    expect(result.chunksImported).toBe(ids.length - have.length)
    expect(Buffer.from(await b.readFile('/data/shared.bin')).equals(Buffer.from(shared))).toBe(true)
  })

  it('refuses a lean archive on a receiver that lacks a skipped chunk, applying nothing', async () => {
    await a.writeFile('/x.bin', pseudoRandomBytes(300_000, 3))
    const ids = await hexIds(a.archiveChunkIds())
    const before = b.head()
    await rejectsWith(
      b.importArchive(await bytesOf(a.exportArchive({ skipChunks: raw(ids.slice(0, 1)) }))),
      'INVALID_ARCHIVE',
    )
    expect(b.head()).toBe(before)
    expect(await held(b, ids)).toEqual([])
  })

  it('keeps the chunks an import committed before it was cut short, and a resumed import skips them', async () => {
    await a.writeFile('/big.bin', pseudoRandomBytes(1_200_000, 4))
    const ids = await hexIds(a.archiveChunkIds())
    const archive = await bytesOf(a.exportArchive())
    const cut = archive.subarray(0, Math.floor(archive.length * 0.8))
    const before = b.head()
    await rejectsWith(b.importArchive(cut, { commitChunksEvery: 64 * 1024 }), 'INVALID_ARCHIVE')
    expect(b.head()).toBe(before)
    const kept = await held(b, ids)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(ids.length)

    // Without the option, a cut import keeps nothing.
    const c = (await openMemoryDatabase()).db
    try {
      await rejectsWith(c.importArchive(cut), 'INVALID_ARCHIVE')
      expect(await held(c, ids)).toEqual([])
    } finally {
      await c.close()
    }

    // Resumed: only what is missing travels, and the version is whole.
    const rest = await bytesOf(a.exportArchive({ skipChunks: raw(kept) }))
    expect(rest.length).toBeLessThan(archive.length - 50_000)
    await b.importArchive(rest, { promote: true })
    expect(b.head()).toBe(a.head())
    expect(
      Buffer.from(await b.readFile('/big.bin')).equals(
        Buffer.from(pseudoRandomBytes(1_200_000, 4)),
      ),
    ).toBe(true)
  })

  it('leaves chunks of an abandoned import to GC', async () => {
    await a.writeFile('/big.bin', pseudoRandomBytes(1_000_000, 5))
    const archive = await bytesOf(a.exportArchive())
    const ids = await hexIds(a.archiveChunkIds())
    const cut = archive.subarray(0, archive.length - 10)
    await rejectsWith(b.importArchive(cut, { commitChunksEvery: 1 }), 'INVALID_ARCHIVE')
    // Counted, not looked up: a lookup keeps what it finds from GC for a while (uploads).
    expect(b.stats().counts.chunks).toBe(ids.length)
    const result = await b.gc()
    expect(result.garbageEntries).toBe(ids.length)
    expect(b.stats().counts.chunks).toBe(0)
  })

  it('counts the same chunks and bytes whether an import commits them as it goes or at once', async () => {
    const bytes = pseudoRandomBytes(900_000, 6)
    await a.writeFile('/one.bin', bytes)
    await a.writeFile('/two.bin', bytes)
    await a.writeFile('/three.bin', pseudoRandomBytes(300_000, 9))
    const archive = await bytesOf(a.exportArchive())
    await b.importArchive(archive, { promote: true, commitChunksEvery: 100_000 })
    const c = (await openMemoryDatabase()).db
    try {
      await c.importArchive(archive, { promote: true })
      expect(b.head()).toBe(c.head())
      expect(b.stats().counts).toEqual(c.stats().counts)
      expect(b.stats().sizes).toEqual(c.stats().sizes)
    } finally {
      await c.close()
    }
  })

  it('refuses a commitChunksEvery that is not a positive integer', async () => {
    const archive = await bytesOf(a.exportArchive())
    for (const every of [0, -1, 1.5, Number.NaN])
      await rejectsWith(b.importArchive(archive, { commitChunksEvery: every }), 'INVALID_INPUT')
  })

  it('leaves out only chunks: a named object id drops nothing', async () => {
    await a.writeFile('/dir/f.txt', 'kept')
    const root = a.head()
    const whole = await bytesOf(a.exportArchive())
    const same = await bytesOf(a.exportArchive({ skipChunks: raw([root]) }))
    expect(same.length).toBe(whole.length)
    const result = await b.importArchive(same, { promote: true })
    expect(result.versionHash).toBe(root)
  })
})
