import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { CHUNK_SIZES } from '../chunking/fastcdc'
import { createLevelChunkStore } from '../chunks/level-chunk-store'
import { Database } from '../database'
import { createHasher } from '../hashing/create-hasher'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { ingestSingleChunk, singleChunkBytes } from './bulk-write-small'
import { ingest } from './ingest'

const MIN = CHUNK_SIZES.minSize
const hasher = await createHasher('sha256')
const text = (size: number) =>
  'lorem ipsum dolor sit amet\n'.repeat(Math.ceil(size / 27)).slice(0, size)

describe('singleChunkBytes', () => {
  it('takes bytes and text up to the chunker minimum, and nothing else', () => {
    expect(singleChunkBytes(new Uint8Array(MIN))?.length).toBe(MIN)
    expect(singleChunkBytes(new Uint8Array(MIN + 1))).toBeUndefined()
    expect(singleChunkBytes('')?.length).toBe(0)
    expect(singleChunkBytes('é'.repeat(MIN / 2))?.length).toBe(MIN)
    // Fewer UTF-16 units than the limit, more UTF-8 bytes.
    expect(singleChunkBytes('é'.repeat(MIN / 2 + 1))).toBeUndefined()
    expect(singleChunkBytes(new Blob([]).stream())).toBeUndefined()
  })
})

describe('ingestSingleChunk', () => {
  it('gives the chunks, content hash and ops ingest gives, at every size up to the minimum', async () => {
    const sizes = [0, 1, 255, 256, 4096, MIN - 1, MIN]
    for (const [i, size] of sizes.entries()) {
      for (const bytes of [pseudoRandomBytes(size, i), new TextEncoder().encode(text(size))]) {
        const streamed = createLevelChunkStore({ meta: createLevelMetaStore(new MemoryLevel()) })
        const direct = createLevelChunkStore({ meta: createLevelMetaStore(new MemoryLevel()) })
        const expected = await ingest(bytes, streamed, hasher)
        const got = await ingestSingleChunk(bytes, direct, hasher)
        expect(got).toEqual(expected)
        expect(got.chunks.length).toBe(size === 0 ? 0 : 1)
      }
    }
  })

  it('reports a chunk already staged as not new, as ingest does', async () => {
    const store = createLevelChunkStore({ meta: createLevelMetaStore(new MemoryLevel()) })
    const bytes = new TextEncoder().encode(text(5000))
    const first = await ingestSingleChunk(bytes, store, hasher)
    const again = await ingestSingleChunk(bytes, store, hasher)
    expect(first.newChunks).toBe(1)
    expect(again).toMatchObject({ newChunks: 0, newRawBytes: 0, newStoredBytes: 0 })
    expect(again).toEqual({ ...(await ingest(bytes, store, hasher)), ops: again.ops })
  })
})

describe('Workspace.writeFiles of single-chunk files', () => {
  it('stores them as writeFile does: same hashes, same bytes, across a reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-bulk-small-'))
    try {
      let db = await Database.open({ path: join(dir, 'db') })
      const sizes = [0, 1, 700, MIN - 1, MIN, MIN + 1, 3 * MIN]
      const contents = sizes.map((size, i) => pseudoRandomBytes(size, 100 + i))
      for (const [i, data] of contents.entries()) await db.writeFile(`/one/${i}`, data)
      await db.writeFiles([
        ...contents.map((data, i) => ({ path: `/bulk/${i}`, data })),
        { path: '/bulk/text', data: text(9000) },
      ])
      await db.writeFile('/one/text', text(9000))
      await db.close()
      db = await Database.open({ path: join(dir, 'db') })
      for (const [i, data] of contents.entries()) {
        const [one, bulk] = [await db.stat(`/one/${i}`), await db.stat(`/bulk/${i}`)]
        expect(bulk.hash).toBe(one.hash)
        expect(Buffer.from(await db.readFile(`/bulk/${i}`)).equals(data)).toBe(true)
      }
      expect((await db.stat('/bulk/text')).hash).toBe((await db.stat('/one/text')).hash)
      await db.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
