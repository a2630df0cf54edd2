import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import { createChunker } from '../chunking/fastcdc'
import { Database } from '../database'
import { createHasher } from '../hashing/create-hasher'
import { toHex } from '../internal/hex'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

async function cut(bytes: Uint8Array) {
  const hasher = await createHasher('sha256')
  const chunker = createChunker()
  const chunks = [...chunker.push(bytes), ...chunker.end()]
  return chunks.map((c) => ({
    bytes: c,
    hash: toHex(hasher.hashDomain('chunk', c)),
    size: c.length,
  }))
}

describe('chunk uploads', () => {
  it('stores only missing chunks and assembles the same file a direct write makes', async () => {
    const { db } = await openMemoryDatabase()
    const original = pseudoRandomBytes(600_000, 1)
    const direct = await db.writeFile('/direct.bin', original)
    const edited = original.slice()
    edited[300_000] = (edited[300_000] as number) ^ 1
    const chunks = await cut(edited)
    const missing = await db.missingChunks(chunks.map((c) => c.hash))
    expect(missing.length).toBeGreaterThan(0)
    expect(missing.length).toBeLessThan(chunks.length)
    for (const c of chunks.filter((c) => missing.includes(c.hash))) {
      expect(await db.putChunk(c.hash, c.bytes)).toEqual({ isNew: true })
    }
    expect(await db.missingChunks(chunks.map((c) => c.hash))).toEqual([])
    const written = await db.writeChunks(
      '/uploaded.bin',
      chunks.map(({ hash, size }) => ({ hash, size })),
      {
        contentType: 'application/x-test',
      },
    )
    expect(Buffer.from(await db.readFile('/uploaded.bin')).equals(Buffer.from(edited))).toBe(true)
    const again = await db.writeFile('/direct-edited.bin', edited)
    expect(written.hash).toBe(again.hash)
    expect(written.hash).not.toBe(direct.hash)
    await db.close()
  })

  it('refuses lying bytes, missing chunks and a wrong content hash, storing nothing', async () => {
    const { db } = await openMemoryDatabase()
    const [chunk] = await cut(pseudoRandomBytes(10_000, 2))
    const c = chunk as { bytes: Uint8Array; hash: string; size: number }
    await rejectsWith(db.putChunk(c.hash, pseudoRandomBytes(10_000, 3)), 'INVALID_INPUT')
    await rejectsWith(db.putChunk('nothex', c.bytes), 'INVALID_HASH')
    await rejectsWith(db.writeChunks('/f', [{ hash: c.hash, size: c.size }]), 'INVALID_INPUT')
    await db.putChunk(c.hash, c.bytes)
    await rejectsWith(
      db.writeChunks('/f', [{ hash: c.hash, size: c.size }], { contentHash: 'f'.repeat(64) }),
      'INVALID_INPUT',
    )
    await rejectsWith(db.writeChunks('/f', [{ hash: c.hash, size: 0 }]), 'INVALID_INPUT')
    await rejectsWith(db.stat('/f'), 'NOT_FOUND')
    expect((await db.putChunk(c.hash, c.bytes)).isNew).toBe(false)
    await db.close()
  })
})

describe('chunk uploads with lying sizes', () => {
  it('refuses a commit whose sizes differ from the stored chunks, on disk, and reads stay whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-sizes-'))
    const db = await Database.open({ path: dir })
    try {
      const small = pseudoRandomBytes(10, 3)
      const [ten] = await cut(small)
      const [big] = await cut(pseudoRandomBytes(100_000, 4))
      if (ten === undefined || big === undefined) throw new Error('no chunks')
      await db.putChunk(ten.hash, ten.bytes)
      await db.putChunk(big.hash, big.bytes)
      const before = db.head()
      for (const lie of [
        [
          { hash: ten.hash, size: 200_000 },
          { hash: ten.hash, size: 200_000 },
        ],
        [{ hash: big.hash, size: 16 }],
        [
          { hash: ten.hash, size: 10 },
          { hash: big.hash, size: 99_999 },
        ],
      ]) {
        await rejectsWith(db.writeChunks('/u/boom.bin', lie), 'INVALID_INPUT')
      }
      expect(db.head()).toBe(before)
      const ok = await db.writeChunks('/u/ok.bin', [
        { hash: ten.hash, size: 10 },
        { hash: big.hash, size: big.size },
      ])
      expect(ok.size).toBe(10 + big.size)
      const back = await db.readFile('/u/ok.bin')
      expect(Buffer.from(back.subarray(0, 10)).equals(Buffer.from(small))).toBe(true)
      expect(back.length).toBe(ok.size)
    } finally {
      await db.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('chunk uploads under an online GC', () => {
  it('keeps chunks sent or confirmed for an upload through a GC until the commit', async () => {
    const { db, clock } = await openMemoryDatabase()
    const [sent] = await cut(pseudoRandomBytes(20_000, 7))
    const [kept] = await cut(pseudoRandomBytes(30_000, 8))
    if (sent === undefined || kept === undefined) throw new Error('no chunks')
    // A chunk stored once but referenced by nothing any more, as after a delete.
    await db.writeFile('/gone.bin', kept.bytes)
    await db.delete('/gone.bin')
    await db.putChunk(sent.hash, sent.bytes)
    expect(await db.missingChunks([sent.hash, kept.hash])).toEqual([])
    await db.gc()
    const written = await db.writeChunks('/up.bin', [
      { hash: sent.hash, size: sent.size },
      { hash: kept.hash, size: kept.size },
    ])
    expect(written.size).toBe(sent.size + kept.size)
    // Past the grace window, chunks no file names are garbage again.
    const [late] = await cut(pseudoRandomBytes(20_000, 9))
    if (late === undefined) throw new Error('no chunks')
    await db.putChunk(late.hash, late.bytes)
    clock.time += 2 * 60 * 60 * 1000
    await db.gc()
    expect(await db.missingChunks([late.hash])).toEqual([late.hash])
    await db.close()
  })
})

describe('readChunk', () => {
  it('gives back a stored chunk’s bytes, on disk too, and refuses unknown or malformed ids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-read-chunk-'))
    const db = await Database.open({ path: dir })
    try {
      const [small, large] = [pseudoRandomBytes(3_000, 7), pseudoRandomBytes(70_000, 8)]
      for (const bytes of [small, large]) {
        const [chunk] = await cut(bytes)
        await db.putChunk(chunk!.hash, chunk!.bytes)
        const back = await db.readChunk(chunk!.hash)
        expect(new Uint8Array(back)).toEqual(new Uint8Array(chunk!.bytes))
      }
      await rejectsWith(db.readChunk('ab'.repeat(32)), 'NOT_FOUND')
      await rejectsWith(db.readChunk('not-a-hash'), 'INVALID_HASH')
    } finally {
      await db.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
