import { promisify } from 'node:util'
import {
  brotliCompress,
  brotliDecompress,
  constants as zlibConstants,
  deflateRaw,
  inflateRaw,
  inflateRawSync,
} from 'node:zlib'
import { EngineError } from '../errors'
import { smallChunkDeflater } from './deflate-worker'

const deflateRawAsync = promisify(deflateRaw)
const inflateRawAsync = promisify(inflateRaw)
const brotliCompressAsync = promisify(brotliCompress)
const brotliDecompressAsync = promisify(brotliDecompress)

/**
 * How a chunk's bytes are stored, one byte per record so every record stays readable whatever
 * later versions choose: 0 = raw, 1 = raw DEFLATE (RFC 1951) through node:zlib, 2 = Brotli
 * (RFC 7932, database format 2 and later).
 */
export const CHUNK_CODEC = { raw: 0, deflateRaw: 1, brotli: 2 } as const

/** A codec byte of {@link CHUNK_CODEC}. */
export type ChunkCodec = (typeof CHUNK_CODEC)[keyof typeof CHUNK_CODEC]

/** True for a codec byte this version can read. */
export function isChunkCodec(value: number): value is ChunkCodec {
  return (
    value === CHUNK_CODEC.raw || value === CHUNK_CODEC.deflateRaw || value === CHUNK_CODEC.brotli
  )
}

/** How chunks are compressed. */
export interface CompressionOptions {
  /**
   * zlib level 1–9, or 0 to store everything raw. Default {@link DEFAULT_COMPRESSION_LEVEL}.
   */
  level?: number
  /**
   * The codec of chunks over 16 KiB: Brotli (default) or DEFLATE at `level`. Brotli at
   * {@link DEFAULT_BROTLI_QUALITY} stores about what DEFLATE level 4 does for 15–30 % less CPU
   * (see {@link DEFAULT_BROTLI_QUALITY}).
   */
  large?: 'brotli' | 'deflateRaw'
  /** Brotli quality 0–11 for large chunks. Default {@link DEFAULT_BROTLI_QUALITY}. */
  brotliQuality?: number
}

/**
 * Brotli quality of large chunks. Measured in 64 KiB chunks against DEFLATE level 4 (size,
 * CPU): a real `node_modules` −1.1 %, −31 %; /usr/include +1.9 %, −17 %; Python's library
 * +0.7 %, −22 %; this repository's sources +3 %, ±0. Quality 4 is 1–3 % smaller than level 4
 * for 20–40 % more CPU; quality 5 5–9 % smaller for 75 % more. An ingest of a source tree is
 * CPU-bound on two cores, so the cheaper setting wins there.
 */
export const DEFAULT_BROTLI_QUALITY = 3

/**
 * The zlib level chunks are deflated at unless told otherwise. Measured on a real source tree
 * (6,094 files of node_modules, 157 MB) against level 1: stored 5 % smaller (58.9 → 56.0 MB),
 * for 14 % more CPU over the whole ingest; on 20,000 small text files 0.9 % smaller for ≈ 3 %.
 * Level 6 saved little more on small chunks and cost twice level 1's CPU on large ones.
 * Inflating costs the same whatever the level, so reads are unaffected.
 */
export const DEFAULT_COMPRESSION_LEVEL = 4

/** Chunks smaller than this are stored raw: DEFLATE cannot save enough on them. */
const MIN_COMPRESS_SIZE = 256
/** Bytes examined by the sample test: four windows spread over the chunk. */
const SAMPLE_WINDOW = 512
const SAMPLE_WINDOWS = 4
/** Order-0 entropy (bits per byte) under which Huffman coding alone should save ≥ 10 %. */
const MAX_ENTROPY = 7.2
/** Share of repeated 4-byte sequences above which LZ77 matching should pay. */
const MIN_REPEATS = 0.08
/** Keep the compressed form only when it is at most this share of the raw size. */
const MAX_RATIO = 0.9
/**
 * Chunks up to this size are small. Small chunks are inflated in place: 12 µs of CPU for
 * 4 KiB against ≈ 20 µs a chunk through the thread pool, and a read of a small file waits for nothing else. They are deflated in a
 * worker thread, many a message (see `deflate-worker.ts`): in place, deflating made the event
 * loop the bottleneck of a bulk load; one `deflateRaw` each on the thread pool cost more than
 * twice the CPU of the deflating itself. Larger chunks, whose set-up is amortised, stay on the
 * thread pool. Small chunks also get a DEFLATE window their size: less zlib state to set up.
 */
const SMALL_CHUNK_BYTES = 16 * 1024

// Scratch tables of the sample test, reused (and reset) by every call: it runs synchronously.
const counts = new Uint32Array(256)
const seen = new Int32Array(2048)

/**
 * A cheap guess (a couple of microseconds) of whether DEFLATE would save space: samples up to
 * 2 KiB, measures how often 4-byte sequences repeat (stopping at the first window that shows
 * enough repeats) and the byte entropy. Random bytes and
 * already-compressed media fail both tests and skip compression entirely.
 */
export function looksCompressible(data: Uint8Array): boolean {
  if (data.length < MIN_COMPRESS_SIZE) return false
  counts.fill(0)
  seen.fill(-1)
  let sampled = 0
  let grams = 0
  let repeats = 0
  const windows = data.length <= SAMPLE_WINDOW * SAMPLE_WINDOWS ? 1 : SAMPLE_WINDOWS
  const size = windows === 1 ? data.length : SAMPLE_WINDOW
  const stride = windows === 1 ? 0 : Math.floor((data.length - size) / (windows - 1))
  for (let w = 0; w < windows; w++) {
    const start = w * stride
    let gram = 0
    for (let i = start; i < start + size; i++) {
      const b = data[i] as number
      counts[b]! += 1
      gram = (gram << 8) | b
      if (i - start >= 3) {
        const slot = Math.imul(gram, 0x9e3779b1) >>> 21
        if (seen[slot] === gram) repeats++
        else seen[slot] = gram
        grams++
      }
    }
    sampled += size
    // Text repeats itself within the first window: the others would only confirm it (they cost
    // ≈ 10 µs a chunk on the event loop). A wrong guess costs a DEFLATE whose result is
    // dropped by the ratio check, never a wrong stored form.
    if (grams > 0 && repeats / grams >= MIN_REPEATS) return true
  }
  let entropy = 0
  for (let b = 0; b < 256; b++) {
    const count = counts[b] as number
    if (count === 0) continue
    const p = count / sampled
    entropy -= p * Math.log2(p)
  }
  return entropy <= MAX_ENTROPY
}

/** A chunk as it will be stored. */
export interface EncodedChunk {
  codec: ChunkCodec
  stored: Uint8Array
}

/**
 * Picks the stored form of a chunk: DEFLATE (on libuv's thread pool, off the event loop) when
 * the sample test is hopeful and the result saves at least 10 %, else the raw bytes as given.
 */
export async function encodeChunk(
  raw: Uint8Array,
  options: CompressionOptions = {},
): Promise<EncodedChunk> {
  const level = options.level ?? DEFAULT_COMPRESSION_LEVEL
  if (level === 0 || !looksCompressible(raw)) return { codec: CHUNK_CODEC.raw, stored: raw }
  const small = raw.length <= SMALL_CHUNK_BYTES
  const brotli = !small && (options.large ?? 'brotli') === 'brotli'
  const compressed = small
    ? await deflateSmall(raw, { level, windowBits: windowBitsFor(raw.length) })
    : brotli
      ? await brotliCompressAsync(raw, brotliOptions(raw.length, options.brotliQuality))
      : await deflateRawAsync(raw, { level })
  if (compressed.length > raw.length * MAX_RATIO) return { codec: CHUNK_CODEC.raw, stored: raw }
  return {
    codec: brotli ? CHUNK_CODEC.brotli : CHUNK_CODEC.deflateRaw,
    stored: new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.length),
  }
}

/** Brotli parameters for one chunk: a window just covering it, and its size as a hint. */
function brotliOptions(size: number, quality = DEFAULT_BROTLI_QUALITY) {
  if (!Number.isInteger(quality) || quality < 0 || quality > 11)
    throw new RangeError(`brotliQuality must be an integer 0–11, got ${quality}`)
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlibConstants
  return {
    params: {
      [BROTLI_PARAM_QUALITY]: quality,
      [BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(size)))),
      [BROTLI_PARAM_SIZE_HINT]: size,
    },
  }
}

/** DEFLATE of a small chunk in the worker; on the thread pool if the worker cannot run. */
async function deflateSmall(
  raw: Uint8Array,
  options: { level: number; windowBits: number },
): Promise<Uint8Array> {
  const inWorker = smallChunkDeflater.deflateRaw(raw, options)
  if (inWorker !== null) {
    try {
      return await inWorker
    } catch {
      // The worker failed or died: the thread pool gives the same bytes.
    }
  }
  return deflateRawAsync(raw, options)
}

/**
 * The smallest DEFLATE window covering a small chunk (9–15 bits): less state to set up, the
 * same output, and any inflater (window 15) reads it.
 */
function windowBitsFor(size: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(size))))
}

function corrupt(what: string, cause?: unknown): EngineError {
  return new EngineError('CONTENT_CORRUPT', `stored chunk is corrupt: ${what}`, { cause })
}

/**
 * The raw bytes of a stored chunk. Decompression is bounded by `rawLength`, so a damaged
 * record can never inflate without limit; any mismatch throws `CONTENT_CORRUPT`.
 */
export async function decodeChunk(
  codec: number,
  stored: Uint8Array,
  rawLength: number,
): Promise<Uint8Array> {
  if (codec === CHUNK_CODEC.raw) {
    if (stored.length !== rawLength) throw corrupt('raw length does not match')
    return stored
  }
  if (codec !== CHUNK_CODEC.deflateRaw && codec !== CHUNK_CODEC.brotli)
    throw corrupt(`unknown codec ${codec}`)
  let raw: Buffer
  try {
    const limit = { maxOutputLength: Math.max(rawLength, 1) }
    raw =
      codec === CHUNK_CODEC.brotli
        ? await brotliDecompressAsync(stored, limit)
        : rawLength <= SMALL_CHUNK_BYTES
          ? inflateRawSync(stored, limit)
          : await inflateRawAsync(stored, limit)
  } catch (err) {
    throw corrupt('compressed bytes do not inflate', err)
  }
  if (raw.length !== rawLength) throw corrupt('inflated length does not match')
  return new Uint8Array(raw.buffer, raw.byteOffset, raw.length)
}
