import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createChunker } from '../chunking/fastcdc'
import { RECORD_HEADER_LENGTH } from '../chunks/chunk-record'
import { cleanUpPackFixtures, openPackFixture } from '../../test/support/pack-store-fixture'
import { DEFAULT_INLINE_CHUNK_BYTES } from '../chunks/tiered-chunk-store'
import { Database } from '../database'
import { createHasher } from '../hashing/create-hasher'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

const MiB = 1024 * 1024
const hasher = await createHasher('sha256')
const dirs: string[] = []

afterEach(async () => {
  await cleanUpPackFixtures()
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** `bytes` as a network would deliver them: 64 KiB at a time, letting others run between. */
async function* arriving(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    await new Promise((resolve) => setImmediate(resolve))
    yield bytes.slice(at, at + 64 * 1024)
  }
}

/** The hashes of the chunks of `bytes` that go to pack files (the larger ones), in order. */
function packedChunkIds(bytes: Uint8Array): Uint8Array[] {
  const chunker = createChunker()
  return [...chunker.push(bytes.slice()), ...chunker.end()]
    .filter((chunk) => chunk.length > DEFAULT_INLINE_CHUNK_BYTES)
    .map((chunk) => hasher.hashDomain('chunk', chunk))
}

describe('ingest into pack files', () => {
  it('keeps the records of each of 8 concurrent 1 MiB uploads in one contiguous run', async () => {
    const path = await mkdtemp(join(tmpdir(), 'svcdb-contiguous-'))
    dirs.push(path)
    const files = Array.from({ length: 8 }, (_, i) => pseudoRandomBytes(MiB, 100 + i))
    const db = await Database.open({ path })
    try {
      await Promise.all(files.map((bytes, i) => db.writeFile(`/up/${i}`, arriving(bytes))))
    } finally {
      await db.close()
    }
    const packs = await openPackFixture(path)
    let runs = 0
    for (const bytes of files) {
      const ids = packedChunkIds(bytes)
      expect(ids.length).toBeGreaterThan(4)
      const locations = await Promise.all(ids.map((id) => packs.location(id)))
      // Each next record starts where the one before it ends, in the same pack, or a new run
      // begins in the next pack (rotation); one pack here, so one run per file.
      for (let i = 1; i < locations.length; i++) {
        const before = locations[i - 1]!
        const at = locations[i]!
        expect(at.pack).toBe(before.pack)
        expect(at.offset).toBe(before.offset + RECORD_HEADER_LENGTH + before.storedLength)
      }
      runs++
    }
    expect(runs).toBe(8)
  })
})
