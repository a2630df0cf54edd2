import { describe, expect, it } from 'vitest'
import { CHUNK_SIZES, createChunker } from '../chunking/fastcdc'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { BATCH_BYTES, streamBatches, wholeBatches } from './chunk-batches'
import type { ChunkBatch } from './chunk-batches'

const MiB = 1024 * 1024

/** Where the chunker cuts `bytes`: the chunk sizes. */
function reference(bytes: Uint8Array): number[] {
  const chunker = createChunker()
  return [...chunker.push(bytes.slice()), ...chunker.end()].map((c) => c.length)
}

/** Chunk sizes and bytes match (compared as buffers: a deep equal of megabytes is slow). */
function expectChunks(chunks: Uint8Array[], bytes: Uint8Array): void {
  expect(chunks.map((c) => c.length)).toEqual(reference(bytes))
  expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0)
}

async function* pieces(bytes: Uint8Array, step: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += step) yield bytes.slice(at, at + step)
}

/** Every batch's chunks, copied out, then released (so later streams reuse the buffers). */
async function collect(batches: AsyncIterable<ChunkBatch> | Iterable<ChunkBatch>) {
  const sizes: number[] = []
  const chunks: Uint8Array[] = []
  for await (const batch of batches) {
    sizes.push(batch.chunks.reduce((n, c) => n + c.length, 0))
    for (const chunk of batch.chunks) chunks.push(chunk.slice())
    batch.release()
  }
  return { sizes, chunks }
}

describe('chunk batches', () => {
  it('cut where the chunker cuts, in batches of about 1 MiB, however the bytes arrive', async () => {
    const sizes = [1, CHUNK_SIZES.minSize + 1, MiB - 1, MiB + 300_000, 3 * MiB + 12_345]
    for (const [i, size] of sizes.entries()) {
      const bytes = pseudoRandomBytes(size, 40 + i)
      const ways = [
        wholeBatches(bytes),
        streamBatches(pieces(bytes, 1000)),
        streamBatches(pieces(bytes, 64 * 1024)),
        streamBatches(pieces(bytes, MiB + 7)),
        streamBatches(pieces(bytes, size)),
      ]
      for (const way of ways) {
        const got = await collect(way)
        expectChunks(got.chunks, bytes)
        // Every batch but the last holds at least BATCH_BYTES, and none more than a chunk past it.
        for (const [j, n] of got.sizes.entries()) {
          if (j < got.sizes.length - 1) expect(n).toBeGreaterThanOrEqual(BATCH_BYTES)
          expect(n).toBeLessThan(BATCH_BYTES + CHUNK_SIZES.maxSize)
        }
      }
    }
  })

  it('keeps a batch’s bytes until it is released, while other streams run', async () => {
    const a = pseudoRandomBytes(2 * MiB + 5, 1)
    const b = pseudoRandomBytes(2 * MiB + 5, 2)
    const held: ChunkBatch[] = []
    for await (const batch of streamBatches(pieces(a, 64 * 1024))) held.push(batch)
    // Another stream takes buffers meanwhile (and releases its own for reuse).
    expectChunks((await collect(streamBatches(pieces(b, 64 * 1024)))).chunks, b)
    expectChunks(
      held.flatMap((batch) => batch.chunks),
      a,
    )
    for (const batch of held) batch.release()
  })

  it('copies a small last chunk out of the batch buffer (the small tier and the deflate worker keep no view of it)', async () => {
    const bytes = pseudoRandomBytes(MiB + 300_000, 7)
    const batches = []
    for await (const batch of streamBatches(pieces(bytes, 64 * 1024))) batches.push(batch)
    const chunks = batches.flatMap((batch) => batch.chunks)
    const last = chunks[chunks.length - 1] as Uint8Array
    const small = bytes.length - chunks.slice(0, -1).reduce((n, c) => n + c.length, 0)
    expect(last.length).toBe(small)
    expect(small).toBeLessThanOrEqual(CHUNK_SIZES.minSize) // these bytes end in a small chunk
    expect(last.buffer.byteLength).toBe(last.length)
    // The others stay views of the batch buffers.
    expect((chunks[0] as Uint8Array).buffer.byteLength).toBeGreaterThan(MiB)
    for (const batch of batches) batch.release()
  })
})
