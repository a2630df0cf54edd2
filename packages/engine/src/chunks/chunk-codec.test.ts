import { randomBytes } from 'node:crypto'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { CHUNK_CODEC, decodeChunk, encodeChunk, looksCompressible } from './chunk-codec'

/** Text-like bytes: words drawn from a small vocabulary. */
function prose(length: number): Uint8Array {
  const words = ['chunk', 'store', 'the', 'of', 'database', 'version', 'a', 'hash', 'tree', 'pack']
  let text = ''
  for (let i = 0; text.length < length; i++) text += `${words[(i * 7 + (i >> 3)) % words.length]} `
  return new TextEncoder().encode(text.slice(0, length))
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

  it('stores compressible chunks deflated and smaller, random chunks raw', async () => {
    const text = prose(64 * 1024)
    const packed = await encodeChunk(text)
    expect(packed.codec).toBe(CHUNK_CODEC.deflateRaw)
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

  it('stores everything raw at level 0', async () => {
    expect((await encodeChunk(prose(10_000), { level: 0 })).codec).toBe(CHUNK_CODEC.raw)
  })

  it('decodes what it encodes, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 4000, size: 'max' }),
          fc.nat({ max: 20_000 }).map((n) => prose(n)),
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
      const { codec, stored } = await encodeChunk(raw)
      expect(codec).toBe(CHUNK_CODEC.deflateRaw)
      // A default (window 15) inflater, as older versions and other readers use.
      expect(Buffer.compare(inflateRawSync(stored), raw)).toBe(0)
      const foreign = deflateRawSync(raw, { level: 9 })
      const back = await decodeChunk(CHUNK_CODEC.deflateRaw, foreign, raw.length)
      expect(Buffer.compare(back, raw)).toBe(0)
    }
  })

  it('refuses to inflate beyond the recorded raw length', async () => {
    const bomb = deflateRawSync(new Uint8Array(1 << 20))
    const err = await decodeChunk(CHUNK_CODEC.deflateRaw, bomb, 1000).catch((e: unknown) => e)
    expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
  })

  it('reports garbage, short output and unknown codecs as CONTENT_CORRUPT', async () => {
    const cases = [
      () => decodeChunk(CHUNK_CODEC.deflateRaw, randomBytes(100), 5000),
      () => decodeChunk(CHUNK_CODEC.deflateRaw, deflateRawSync(prose(500)), 501),
      () => decodeChunk(CHUNK_CODEC.raw, new Uint8Array(10), 11),
      () => decodeChunk(7, new Uint8Array(10), 10),
    ]
    for (const run of cases) {
      const err = await run().catch((e: unknown) => e)
      expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
    }
  })
})
