// Streaming FastCDC (Xia et al., "FastCDC: a Fast and Efficient Content-Defined Chunking
// Approach for Data Deduplication", USENIX ATC 2016) with normalised chunking at level 2.
// Runs in browsers too (the client chunks uploads with it), so nothing here imports `node:*`.
import { defaultGearScanner } from './gear-scan'
import type { GearScanner } from './gear-scanner'

/** Chunk size parameters; the defaults are the storage format's (DESIGN §3.2). */
export interface ChunkerOptions {
  /** No chunk but the last is smaller than this. Default 16 KiB. */
  minSize?: number
  /** Target average, a power of two. Default 64 KiB. */
  avgSize?: number
  /** No chunk is larger than this. Default 256 KiB. */
  maxSize?: number
}

/** The chunk sizes of the storage format: min 16 KiB, average 64 KiB, max 256 KiB. */
export const CHUNK_SIZES = { minSize: 16 * 1024, avgSize: 64 * 1024, maxSize: 256 * 1024 } as const

/**
 * Cuts a stream of bytes into content-defined chunks. Feed it buffers of any size; the
 * boundaries depend only on the bytes, never on how they were split into buffers.
 */
export interface Chunker {
  /**
   * Adds bytes and returns the chunks completed by them, in order. A chunk that lies within
   * `data` is a view of it (no copy), so do not reuse `data`'s memory while holding chunks;
   * a chunk that spans several pushes is fresh memory the chunker no longer touches. The
   * chunker keeps at most one incomplete chunk (≤ `maxSize` bytes), copied out of the inputs.
   */
  push(data: Uint8Array): Uint8Array[]
  /** Returns the last chunk (if any bytes remain) and resets the chunker for a new stream. */
  end(): Uint8Array[]
}

/** Top `bits` bits set: a cut is declared when those bits of the rolling hash are all zero. */
function topMask(bits: number): number {
  return bits <= 0 ? 0 : (0xffffffff << (32 - bits)) | 0
}

function validate(minSize: number, avgSize: number, maxSize: number): void {
  for (const [name, value] of [
    ['minSize', minSize],
    ['avgSize', avgSize],
    ['maxSize', maxSize],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`chunker ${name} must be a positive integer, got ${value}`)
    }
  }
  if (!(minSize < avgSize && avgSize < maxSize)) {
    throw new RangeError(
      `chunker sizes must satisfy min < avg < max, got ${minSize}/${avgSize}/${maxSize}`,
    )
  }
  if ((avgSize & (avgSize - 1)) !== 0 || avgSize < 16 || avgSize > 2 ** 28) {
    throw new RangeError(`chunker avgSize must be a power of two in [16, 2^28], got ${avgSize}`)
  }
}

class FastCdcChunker implements Chunker {
  readonly #min: number
  readonly #avg: number
  readonly #max: number
  /** Stricter mask (2 more bits) used before the average size: fewer small chunks. */
  readonly #maskS: number
  /** Looser mask (2 fewer bits) used after it: fewer large chunks. */
  readonly #maskL: number
  /** Rolling hash of the current chunk; starts at 0 at position `min` (earlier bytes are skipped). */
  #hash = 0
  /** Bytes of the current chunk received in earlier pushes, copied out of their inputs. */
  #carry: Uint8Array | undefined
  #carried = 0
  readonly #scanner: GearScanner

  constructor(options: ChunkerOptions, scanner: GearScanner) {
    const min = options.minSize ?? CHUNK_SIZES.minSize
    const avg = options.avgSize ?? CHUNK_SIZES.avgSize
    const max = options.maxSize ?? CHUNK_SIZES.maxSize
    validate(min, avg, max)
    const bits = Math.log2(avg)
    this.#min = min
    this.#avg = avg
    this.#max = max
    this.#maskS = topMask(bits + 2)
    this.#maskL = topMask(bits - 2)
    this.#scanner = scanner
  }

  push(data: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = []
    const n = data.length
    const scanner = this.#scanner
    const maskS = this.#maskS
    const maskL = this.#maskL
    let start = 0 // where the current chunk's bytes begin in `data`
    let i = 0 // next byte to hash
    for (;;) {
      // Positions of this chunk's thresholds, in `data` coordinates (may be negative or > n).
      const base = start - this.#carried
      const minAt = base + this.#min
      const avgAt = base + this.#avg
      const maxAt = base + this.#max
      if (i < minAt) i = minAt
      if (i >= n) break
      let h = this.#hash
      let cut = -1
      // The stricter mask up to the average size, the looser one after it: two scans, so the
      // loop itself never looks at the position.
      if (i < avgAt) {
        const stop = avgAt < n ? avgAt : n
        cut = scanner.scan(data, i, stop, h, maskS)
        if (cut < 0) {
          h = scanner.hash
          i = stop
        }
      }
      if (cut < 0 && i >= avgAt) {
        const stop = maxAt < n ? maxAt : n
        if (i < stop) {
          cut = scanner.scan(data, i, stop, h, maskL)
          if (cut < 0) {
            h = scanner.hash
            i = stop
          }
        }
        if (cut < 0 && i >= maxAt) cut = maxAt
      }
      if (cut < 0) {
        this.#hash = h
        break
      }
      out.push(this.#take(data, start, cut))
      start = cut
      i = cut
      this.#hash = 0
    }
    if (start < n) {
      // Copy, so a view never pins a large input buffer; the carry never exceeds maxSize.
      // Room for one more input of this size, so the chunk usually completes in place and is
      // handed out without a second copy; small files get a small buffer, not maxSize.
      const need = this.#carried + (n - start)
      if (this.#carry === undefined || this.#carry.length < need) {
        const grown = new Uint8Array(
          Math.min(this.#max, Math.max(need + n, (this.#carry?.length ?? 0) * 2)),
        )
        if (this.#carry !== undefined && this.#carried > 0)
          grown.set(this.#carry.subarray(0, this.#carried))
        this.#carry = grown
      }
      this.#carry.set(data.subarray(start), this.#carried)
      this.#carried += n - start
    }
    return out
  }

  end(): Uint8Array[] {
    const out = this.#carried > 0 ? [this.#take(new Uint8Array(0), 0, 0)] : []
    this.#hash = 0
    return out
  }

  /**
   * The current chunk: carried bytes followed by `data[start, cut)`. The carry itself becomes
   * the chunk when the rest fits in it (one copy per byte, not two); the chunker then lets go
   * of it, so the caller owns the chunk's memory.
   */
  #take(data: Uint8Array, start: number, cut: number): Uint8Array {
    const carried = this.#carried
    const carry = this.#carry
    if (carried === 0 || carry === undefined) return data.subarray(start, cut)
    const size = carried + cut - start
    this.#carried = 0
    if (size <= carry.length) {
      this.#carry = undefined
      carry.set(data.subarray(start, cut), carried)
      return carry.subarray(0, size)
    }
    const chunk = new Uint8Array(size)
    chunk.set(carry.subarray(0, carried), 0)
    chunk.set(data.subarray(start, cut), carried)
    return chunk
  }
}

/**
 * Creates a streaming FastCDC chunker (normalised chunking, level 2) with the storage format's
 * gear table. Throws `RangeError` for inconsistent sizes.
 *
 * @example
 * const chunker = createChunker()
 * for await (const buf of source) for (const chunk of chunker.push(buf)) store(chunk)
 * for (const chunk of chunker.end()) store(chunk)
 */
export function createChunker(options: ChunkerOptions = {}): Chunker {
  return new FastCdcChunker(options, defaultGearScanner())
}

/** {@link createChunker} with a given gear loop (tests run every implementation through it). */
export function createChunkerWithScanner(options: ChunkerOptions, scanner: GearScanner): Chunker {
  return new FastCdcChunker(options, scanner)
}

/**
 * Where the chunk starting at `start` of `data` ends, for callers that hold the bytes in one
 * buffer and manage it themselves (no copy, no carry). Looks at `data[start, end)`: pass at
 * least `maxSize` bytes past `start`, or every byte left in the stream (`end` is then its end).
 */
export type CutFinder = (data: Uint8Array, start: number, end: number) => number

/**
 * A {@link CutFinder} cutting exactly where {@link createChunker} does (same sizes, same gear
 * loop). Throws `RangeError` for inconsistent sizes.
 *
 * @example
 * const cutAt = createCutFinder()
 * for (let at = 0; at < bytes.length; ) store(bytes.subarray(at, (at = cutAt(bytes, at, bytes.length))))
 */
export function createCutFinder(options: ChunkerOptions = {}): CutFinder {
  const min = options.minSize ?? CHUNK_SIZES.minSize
  const avg = options.avgSize ?? CHUNK_SIZES.avgSize
  const max = options.maxSize ?? CHUNK_SIZES.maxSize
  validate(min, avg, max)
  const bits = Math.log2(avg)
  const maskS = topMask(bits + 2)
  const maskL = topMask(bits - 2)
  const scanner = defaultGearScanner()
  return (data, start, end) => {
    // As FastCdcChunker.push: the hash starts at 0 at `min`, the strict mask up to `avg`.
    let i = start + min
    if (i >= end) return end
    let h = 0
    const avgAt = start + avg
    const maxAt = start + max
    if (i < avgAt) {
      const stop = avgAt < end ? avgAt : end
      const cut = scanner.scan(data, i, stop, h, maskS)
      if (cut >= 0) return cut
      h = scanner.hash
      i = stop
    }
    const stop = maxAt < end ? maxAt : end
    if (i < stop) {
      const cut = scanner.scan(data, i, stop, h, maskL)
      if (cut >= 0) return cut
    }
    return stop
  }
}

/**
 * Chunks an async stream of buffers; memory stays bounded by the max chunk size whatever the
 * stream's length.
 *
 * @example
 * for await (const chunk of chunkStream(createReadStream(path))) await store(chunk)
 */
export async function* chunkStream(
  source: AsyncIterable<Uint8Array>,
  options: ChunkerOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const chunker = createChunker(options)
  for await (const data of source) yield* chunker.push(data)
  yield* chunker.end()
}
