import { throwIfAborted } from '../errors'
import { CHUNK_SIZES, createCutFinder } from '../chunking/fastcdc'

/** A file's chunks handed to the store together, in order. */
export interface ChunkBatch {
  chunks: Uint8Array[]
  /** Call once the store is done with the chunks (every stage settled): their memory is reused. */
  release(): void
}

/**
 * Bytes of chunks per batch (the last may be smaller): a store that appends keeps one batch's
 * records side by side, so a file of up to this size is one run in its pack.
 */
export const BATCH_BYTES = 1024 * 1024
/** Room for a batch plus the incomplete chunk after it. */
const BUFFER_BYTES = BATCH_BYTES + CHUNK_SIZES.maxSize
/**
 * Idle batch buffers kept for reuse. A stream's bytes are copied once into a buffer that is
 * reused: holding the network's buffers until a batch is stored instead made them outlive the
 * young generation, and garbage collection took 15 % of a 1 MiB upload load instead of 6 %.
 */
const POOL_SIZE = 8
const pool: Uint8Array[] = []

function takeBuffer(): Uint8Array {
  return pool.pop() ?? new Uint8Array(BUFFER_BYTES)
}

function releaser(buffer: Uint8Array): () => void {
  let released = false
  return () => {
    if (released) return
    released = true
    if (pool.length < POOL_SIZE) pool.push(buffer)
  }
}

const cutAt = createCutFinder()

/**
 * The chunks of `bytes`, cut where the chunker cuts, as views of it, in batches of about
 * {@link BATCH_BYTES}. Nothing is copied: the caller's buffer outlives the write.
 */
export function* wholeBatches(bytes: Uint8Array): Generator<ChunkBatch> {
  let start = 0
  while (start < bytes.length) {
    const chunks: Uint8Array[] = []
    const limit = start + BATCH_BYTES
    while (start < bytes.length && start < limit) {
      const cut = cutAt(bytes, start, bytes.length)
      chunks.push(bytes.subarray(start, cut))
      start = cut
    }
    yield { chunks, release: () => undefined }
  }
}

/**
 * The chunks of a stream, cut where the chunker cuts, in batches of about
 * {@link BATCH_BYTES}. Every byte is copied once, into a pooled buffer the chunks are views
 * of; the bytes of a chunk left incomplete at a batch's end move to the next buffer. Call
 * each batch's `release()` once its chunks are stored, so the buffer is reused; a batch never
 * released is left to the garbage collector. `signal` is checked before each buffer is taken.
 */
export async function* streamBatches(
  source: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ChunkBatch> {
  const max = CHUNK_SIZES.maxSize
  let buffer = takeBuffer()
  let filled = 0
  let start = 0
  let chunks: Uint8Array[] = []
  try {
    for await (const data of source) {
      throwIfAborted(signal, 'the write')
      let at = 0
      while (at < data.length) {
        const n = Math.min(data.length - at, buffer.length - filled)
        buffer.set(at === 0 && n === data.length ? data : data.subarray(at, at + n), filled)
        filled += n
        at += n
        // Cut only where the cut is known: a whole max-size window lies ahead.
        while (filled - start >= max) {
          const cut = cutAt(buffer, start, filled)
          chunks.push(buffer.subarray(start, cut))
          start = cut
        }
        if (start >= BATCH_BYTES) {
          const next = takeBuffer()
          next.set(buffer.subarray(start, filled))
          yield { chunks, release: releaser(buffer) }
          filled -= start
          start = 0
          chunks = []
          buffer = next
        }
      }
    }
    while (start < filled) {
      const cut = cutAt(buffer, start, filled)
      // A last chunk below the minimum is copied out: it goes to the small tier (and maybe
      // to the deflate worker, whose message would otherwise clone the whole 1.25 MiB buffer).
      chunks.push(
        cut - start <= CHUNK_SIZES.minSize ? buffer.slice(start, cut) : buffer.subarray(start, cut),
      )
      start = cut
    }
    if (chunks.length > 0) yield { chunks, release: releaser(buffer) }
  } finally {
    if (chunks.length === 0 && pool.length < POOL_SIZE) pool.push(buffer)
  }
}
