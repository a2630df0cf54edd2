import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { CHUNK_SIZES, createChunker } from '../chunking/fastcdc'
import { createLevelChunkStore } from '../chunks/level-chunk-store'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { ingest } from './ingest'
import type { WriteData } from './write-data'

const MIN = CHUNK_SIZES.minSize
const hasher = await createHasher('sha256')
const store = () => createLevelChunkStore({ meta: createLevelMetaStore(new MemoryLevel()) })

/** What the chunker alone makes of `bytes`: chunk ids and sizes, and the content hash. */
function reference(bytes: Uint8Array) {
  const chunker = createChunker()
  const parts = [...chunker.push(bytes.slice()), ...chunker.end()]
  const ids = parts.map((part) => hasher.hashDomain('chunk', part))
  const content = hasher.createStream()
  content.update(new TextEncoder().encode('content:'))
  for (const id of ids) content.update(id)
  return {
    chunks: ids.map((hash, i) => ({ hash, size: (parts[i] as Uint8Array).length })),
    size: bytes.length,
    contentHash: content.digest(),
  }
}

/** `bytes` as a stream cut every `step` bytes. */
async function* pieces(bytes: Uint8Array, step: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += step) yield bytes.slice(at, at + step)
}

describe('ingest', () => {
  it('cuts and hashes content as the chunker does, around the one-chunk size, however it arrives', async () => {
    for (const [i, size] of [0, 1, 4096, MIN - 1, MIN, MIN + 1, 3 * MIN, 300_000].entries()) {
      const bytes = pseudoRandomBytes(size, i)
      const expected = reference(bytes)
      const ways: WriteData[] = [
        bytes,
        pieces(bytes, 1000),
        pieces(bytes, MIN),
        pieces(bytes, MIN + 7),
        new Blob([bytes.slice().buffer]).stream(),
      ]
      for (const data of ways) {
        const got = await ingest(data, store(), hasher)
        expect(got).toMatchObject(expected)
        expect(got.newChunks).toBe(expected.chunks.length)
        expect(got.ops.length).toBeGreaterThanOrEqual(expected.chunks.length)
      }
    }
  })

  it('ingests text as its UTF-8 bytes', async () => {
    const text = 'é'.repeat(MIN / 2 + 1) // fewer UTF-16 units than MIN, more UTF-8 bytes
    const got = await ingest(text, store(), hasher)
    expect(got).toMatchObject(reference(new TextEncoder().encode(text)))
  })

  it('stops a cancelled write before staging anything, and closes the stream it read', async () => {
    const controller = new AbortController()
    controller.abort()
    const small = store()
    await expect(
      ingest(new Uint8Array(10), small, hasher, { signal: controller.signal }),
    ).rejects.toSatisfy((err) => isEngineError(err, 'ABORTED'))
    let closed = false
    async function* source() {
      try {
        yield new Uint8Array(10)
        yield new Uint8Array(10)
      } finally {
        closed = true
      }
    }
    await expect(ingest(source(), small, hasher, { signal: controller.signal })).rejects.toSatisfy(
      (err) => isEngineError(err, 'ABORTED'),
    )
    expect(closed).toBe(true)
    expect(await small.has(hasher.hashDomain('chunk', new Uint8Array(10)))).toBe(false)
  })

  it('passes on an error of the stream past the first chunk', async () => {
    async function* failing() {
      yield pseudoRandomBytes(MIN + 1, 1)
      throw new Error('the client went away')
    }
    await expect(ingest(failing(), store(), hasher)).rejects.toThrow('the client went away')
  })
})
