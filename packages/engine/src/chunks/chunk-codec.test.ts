import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  deflateRawSync,
  inflateRawSync,
} from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import {
  CHUNK_CODEC,
  DEFAULT_BROTLI_QUALITY,
  DEFAULT_COMPRESSION_LEVEL,
  decodeChunk,
  encodeChunk,
  looksCompressible,
} from './chunk-codec'

/** Compressing at several levels and qualities takes seconds on a loaded 2-core machine. */
const HEAVY_MS = 30_000
/** Another encoder's Brotli stream (a mid quality: the default 11 is slow for a test). */
const anyone = { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }

/** Text-like bytes: words drawn from a small vocabulary. */
function prose(length: number): Uint8Array {
  const words = ['chunk', 'store', 'the', 'of', 'database', 'version', 'a', 'hash', 'tree', 'pack']
  let text = ''
  for (let i = 0; text.length < length; i++) text += `${words[(i * 7 + (i >> 3)) % words.length]} `
  return new TextEncoder().encode(text.slice(0, length))
}

/** Real source text (this package's own files, end to end), `length` bytes of it. */
function sourceText(length: number): Uint8Array {
  const dir = join(import.meta.dirname, '..')
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .sort()
  const parts: Buffer[] = []
  let total = 0
  for (const name of files) {
    if (total >= length) break
    const bytes = readFileSync(join(dir, name))
    parts.push(bytes)
    total += bytes.length
  }
  return new Uint8Array(Buffer.concat(parts).subarray(0, length))
}

/** Text of words drawn with a skew from a seeded vocabulary, like prose or code. */
function words(length: number, seed: number): Uint8Array {
  let a = seed
  const random = () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0
    return a / 2 ** 32
  }
  const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${(i * 2654435761) >>> 20}`)
  const out: string[] = []
  for (let n = 0; n < length; n += (out.at(-1) as string).length + 1)
    out.push(vocabulary[Math.floor(random() ** 3 * 2000)] as string)
  return new TextEncoder().encode(out.join(' ').slice(0, length))
}

/** Random hex digits: no repeats, but only 4 bits of information per byte. */
function hexDigits(length: number): Uint8Array {
  return new TextEncoder().encode(randomBytes(length).toString('hex').slice(0, length))
}

describe('chunk-codec', () => {
  it('guesses that random bytes do not compress and that text, zeros and hex digits do', () => {
    expect(looksCompressible(randomBytes(64 * 1024))).toBe(false)
    expect(looksCompressible(randomBytes(3000))).toBe(false)
    expect(looksCompressible(prose(64 * 1024))).toBe(true)
    expect(looksCompressible(new Uint8Array(64 * 1024))).toBe(true)
    expect(looksCompressible(hexDigits(64 * 1024))).toBe(true)
    expect(looksCompressible(prose(100))).toBe(false)
  })

  it('decides on the first sampled window when it repeats enough; the ratio check keeps the rest safe', async () => {
    // 64 KiB of random bytes whose first 512 bytes repeat 112 of theirs: that window alone
    // shows ≈ 21 % repeats, the four windows together ≈ 5 %, under the 8 % the guess asks for.
    const data = new Uint8Array(randomBytes(64 * 1024))
    data.copyWithin(400, 0, 112)
    expect(looksCompressible(data)).toBe(true)
    expect(looksCompressible(data.subarray(512))).toBe(false)
    // DEFLATE is tried and saves too little: the chunk is stored raw, as before.
    const encoded = await encodeChunk(data)
    expect(encoded.codec).toBe(CHUNK_CODEC.raw)
    expect(encoded.stored).toBe(data)
  })

  it('stores compressible chunks compressed and smaller, random chunks raw', async () => {
    const small = prose(16 * 1024)
    expect((await encodeChunk(small)).codec).toBe(CHUNK_CODEC.deflateRaw)
    const text = prose(64 * 1024)
    const packed = await encodeChunk(text)
    expect(packed.codec).toBe(CHUNK_CODEC.brotli)
    expect(packed.stored.length).toBeLessThan(text.length * 0.5)
    const random = randomBytes(64 * 1024)
    const kept = await encodeChunk(random)
    expect(kept.codec).toBe(CHUNK_CODEC.raw)
    expect(kept.stored).toBe(random)
  })

  it('keeps the raw form when compression saves less than 10 %', async () => {
    // Half random, half repeated: the sample test is hopeful, the saving is still too small.
    const data = new Uint8Array(64 * 1024)
    data.set(randomBytes(60 * 1024))
    const encoded = await encodeChunk(data)
    expect(encoded.codec).toBe(CHUNK_CODEC.raw)
  })

  it(
    'deflates at level 4 by default, smaller than level 1, small and large chunks alike',
    async () => {
      expect(DEFAULT_COMPRESSION_LEVEL).toBe(4)
      for (const size of [8 * 1024, 200 * 1024]) {
        const text = words(size, size)
        const byDefault = await encodeChunk(text, { large: 'deflateRaw' })
        const fastest = await encodeChunk(text, { level: 1, large: 'deflateRaw' })
        expect(byDefault.codec).toBe(CHUNK_CODEC.deflateRaw)
        expect(byDefault.stored.length).toBeLessThan(fastest.stored.length)
        expect(await decodeChunk(byDefault.codec, byDefault.stored, size)).toEqual(text)
        // What level 1 stored (every record written before this default) still reads.
        expect(await decodeChunk(fastest.codec, fastest.stored, size)).toEqual(text)
      }
    },
    HEAVY_MS,
  )

  it(
    'compresses large chunks with Brotli by default, about as small as DEFLATE level 4',
    async () => {
      expect(DEFAULT_BROTLI_QUALITY).toBe(3)
      for (const size of [16 * 1024 + 1, 64 * 1024, 256 * 1024]) {
        const text = sourceText(size)
        const brotli = await encodeChunk(text)
        const deflated = await encodeChunk(text, { large: 'deflateRaw' })
        expect(brotli.codec).toBe(CHUNK_CODEC.brotli)
        expect(deflated.codec).toBe(CHUNK_CODEC.deflateRaw)
        // About as small (its gain is CPU): within 5 % either way on real text.
        expect(Math.abs(brotli.stored.length / deflated.stored.length - 1)).toBeLessThan(0.05)
        // Plain Brotli streams: any decoder reads them, and ours reads anyone's.
        expect(Buffer.compare(brotliDecompressSync(brotli.stored), text)).toBe(0)
        expect(
          await decodeChunk(CHUNK_CODEC.brotli, brotliCompressSync(text, anyone), size),
        ).toEqual(text)
        // Records DEFLATEd before Brotli (database format 1) still read.
        expect(await decodeChunk(deflated.codec, deflated.stored, size)).toEqual(text)
      }
      const better = await encodeChunk(words(64 * 1024, 9), { brotliQuality: 9 })
      expect(better.stored.length).toBeLessThan(
        (await encodeChunk(words(64 * 1024, 9))).stored.length,
      )
      await expect(encodeChunk(words(64 * 1024, 9), { brotliQuality: 12 })).rejects.toThrow(
        RangeError,
      )
    },
    HEAVY_MS,
  )

  it('stores everything raw at level 0', async () => {
    expect((await encodeChunk(prose(10_000), { level: 0 })).codec).toBe(CHUNK_CODEC.raw)
  })

  it('decodes what it encodes, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 4000, size: 'max' }),
          fc.nat({ max: 80_000 }).map((n) => prose(n)),
        ),
        async (raw) => {
          const { codec, stored } = await encodeChunk(raw)
          const back = await decodeChunk(codec, stored, raw.length)
          expect(Buffer.compare(back, raw)).toBe(0)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('writes small chunks any standard inflater reads, and reads chunks deflated elsewhere', async () => {
    for (const size of [300, 4096, 16 * 1024, 16 * 1024 + 1, 64 * 1024]) {
      const raw = prose(size)
      const { codec, stored } = await encodeChunk(raw, { large: 'deflateRaw' })
      expect(codec).toBe(CHUNK_CODEC.deflateRaw)
      // A default (window 15) inflater, as older versions and other readers use.
      expect(Buffer.compare(inflateRawSync(stored), raw)).toBe(0)
      const foreign = deflateRawSync(raw, { level: 9 })
      const back = await decodeChunk(CHUNK_CODEC.deflateRaw, foreign, raw.length)
      expect(Buffer.compare(back, raw)).toBe(0)
    }
  })

  it('refuses to decompress beyond the recorded raw length', async () => {
    const zeros = new Uint8Array(1 << 20)
    for (const [codec, bomb] of [
      [CHUNK_CODEC.deflateRaw, deflateRawSync(zeros)],
      [CHUNK_CODEC.brotli, brotliCompressSync(zeros)],
    ] as const) {
      const err = await decodeChunk(codec, bomb, 20_000).catch((e: unknown) => e)
      expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
    }
  })

  it('reports garbage, short output and unknown codecs as CONTENT_CORRUPT', async () => {
    const cases = [
      () => decodeChunk(CHUNK_CODEC.deflateRaw, randomBytes(100), 5000),
      () => decodeChunk(CHUNK_CODEC.deflateRaw, deflateRawSync(prose(500)), 501),
      () => decodeChunk(CHUNK_CODEC.brotli, randomBytes(100), 50_000),
      () => decodeChunk(CHUNK_CODEC.brotli, brotliCompressSync(prose(50_000)), 50_001),
      () => decodeChunk(CHUNK_CODEC.raw, new Uint8Array(10), 11),
      () => decodeChunk(7, new Uint8Array(10), 10),
    ]
    for (const run of cases) {
      const err = await run().catch((e: unknown) => e)
      expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
    }
  })
})
