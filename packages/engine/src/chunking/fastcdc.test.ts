import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHUNK_SIZES, chunkStream, createChunker, createChunkerWithScanner } from './fastcdc'
import type { ChunkerOptions } from './fastcdc'
import { createJsGearScanner } from './gear-scan'
import { createWasmGearScanner } from './gear-scan-wasm'
import { GEAR } from './gear-table'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

const { minSize: MIN, avgSize: AVG, maxSize: MAX } = CHUNK_SIZES
const SMALL = { minSize: 32, avgSize: 128, maxSize: 512 } as const

/**
 * A deliberately plain FastCDC over a whole buffer, written from the algorithm's definition
 * (unsigned arithmetic, "top bits are zero" as a division), to check the streaming chunker.
 */
function referenceCuts(data: Uint8Array, sizes: Required<ChunkerOptions>): number[] {
  const { minSize, avgSize, maxSize } = sizes
  const bits = Math.log2(avgSize)
  const cuts: number[] = []
  let start = 0
  while (start < data.length) {
    const remaining = data.length - start
    let size = remaining
    if (remaining > minSize) {
      const limit = Math.min(remaining, maxSize)
      size = limit
      let h = 0
      for (let i = minSize; i < limit; i++) {
        h = (h * 2 + ((GEAR[data[start + i] as number] as number) >>> 0)) % 2 ** 32
        const zeroBits = i < avgSize ? bits + 2 : bits - 2
        if (Math.floor(h / 2 ** (32 - zeroBits)) === 0) {
          size = i + 1
          break
        }
      }
    }
    start += size
    cuts.push(start)
  }
  return cuts
}

/** Splits `data` at the given (unsorted, possibly repeated) offsets. */
function split(data: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (data.length + 1)))].sort((a, b) => a - b)
  const parts: Uint8Array[] = []
  let at = 0
  for (const p of [...points, data.length]) {
    parts.push(data.subarray(at, p))
    at = p
  }
  return parts
}

function chunkAll(parts: Uint8Array[], options: ChunkerOptions = {}): Uint8Array[] {
  const chunker = createChunker(options)
  return [...parts.flatMap((p) => chunker.push(p)), ...chunker.end()]
}

function cutsOf(chunks: Uint8Array[]): number[] {
  let at = 0
  return chunks.map((c) => (at += c.length))
}

function concat(chunks: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks))
}

/** Byte equality without a deep-equality walk (which is far too slow for megabytes). */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length)
  expect(Buffer.compare(actual, expected)).toBe(0)
}

const sha256 = (text: string | Uint8Array): string =>
  createHash('sha256').update(text).digest('hex')

describe('fastcdc', () => {
  it('cuts a fixed pseudo-random input exactly where a plain reference implementation does', () => {
    const data = pseudoRandomBytes(8 * 1024 * 1024, 0x5eed)
    const sizes = [1, 7, 4096, 65_537, 1 << 20, 300_000]
    const parts: Uint8Array[] = []
    for (let at = 0, k = 0; at < data.length; k++) {
      const size = sizes[k % sizes.length] as number
      parts.push(data.subarray(at, at + size))
      at += size
    }
    const cuts = cutsOf(chunkAll(parts))
    const expected = referenceCuts(data, CHUNK_SIZES)
    expect(cuts.length).toBeGreaterThan(60)
    expect(sha256(cuts.join(','))).toBe(sha256(expected.join(',')))
  })

  it('finds the same boundaries however the input is split into buffers', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 6000, size: 'max' }),
        fc.array(fc.nat(), { maxLength: 40, size: 'max' }),
        (data, offsets) => {
          const whole = chunkAll([data], SMALL)
          const pieces = chunkAll(split(data, offsets), SMALL)
          expect(cutsOf(pieces)).toEqual(cutsOf(whole))
          expect(pieces.map((c) => Buffer.from(c).toString('hex'))).toEqual(
            whole.map((c) => Buffer.from(c).toString('hex')),
          )
          expect(cutsOf(whole)).toEqual(referenceCuts(data, SMALL))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('finds the same boundaries with the format sizes under arbitrary splits', () => {
    const data = pseudoRandomBytes(1_500_000, 99)
    const whole = cutsOf(chunkAll([data]))
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: data.length }), { maxLength: 60, size: 'max' }),
        (offsets) => {
          expect(cutsOf(chunkAll(split(data, offsets)))).toEqual(whole)
        },
      ),
      { numRuns: 15 },
    )
  })

  it('cuts like the reference with any sizes and any splits, through every gear loop', () => {
    const scanners = { wasm: createWasmGearScanner(), js: createJsGearScanner() }
    expect(scanners.wasm).toBeDefined()
    const sizes = fc
      .record({
        avgBits: fc.integer({ min: 4, max: 12 }),
        minPart: fc.double({ min: 0, max: 1, noNaN: true }),
        maxTimes: fc.double({ min: 1, max: 4, noNaN: true }),
      })
      .map(({ avgBits, minPart, maxTimes }) => {
        const avgSize = 2 ** avgBits
        return {
          minSize: Math.max(1, Math.floor((avgSize - 1) * minPart)),
          avgSize,
          maxSize: Math.floor(avgSize * maxTimes) + 1,
        }
      })
    fc.assert(
      fc.property(
        sizes,
        fc.uint8Array({ maxLength: 20_000, size: 'max' }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (options, data, offsets) => {
          const expected = referenceCuts(data, options)
          for (const scanner of Object.values(scanners)) {
            const chunker = createChunkerWithScanner(options, scanner!)
            const parts = split(data, offsets)
            const chunks = [...parts.flatMap((p) => chunker.push(p)), ...chunker.end()]
            expect(cutsOf(chunks)).toEqual(expected)
            expectSameBytes(concat(chunks), data)
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps every chunk but the last within [min, max] and loses no byte', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 6000, size: 'max' }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (data, offsets) => {
          const chunks = chunkAll(split(data, offsets), SMALL)
          chunks.slice(0, -1).forEach((c) => {
            expect(c.length).toBeGreaterThan(SMALL.minSize)
            expect(c.length).toBeLessThanOrEqual(SMALL.maxSize)
          })
          expect(chunks.every((c) => c.length > 0)).toBe(true)
          expectSameBytes(concat(chunks), data)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('keeps format-size chunks within [16 KiB, 256 KiB], averaging near 64 KiB', () => {
    const data = pseudoRandomBytes(16 * 1024 * 1024, 7)
    const chunks = chunkAll([data])
    for (const c of chunks.slice(0, -1)) {
      expect(c.length).toBeGreaterThan(MIN)
      expect(c.length).toBeLessThanOrEqual(MAX)
    }
    const mean = data.length / chunks.length
    expect(mean).toBeGreaterThan(AVG * 0.8)
    expect(mean).toBeLessThan(AVG * 1.5)
    expectSameBytes(concat(chunks), data)
  })

  it('cuts data without content boundaries (all zeros) at the max size', () => {
    const chunks = chunkAll([new Uint8Array(MAX * 3 + 10)])
    expect(chunks.map((c) => c.length)).toEqual(
      cutsOf(chunks).map((cut, i, all) => cut - (all[i - 1] ?? 0)),
    )
    expect(cutsOf(chunks)).toEqual(referenceCuts(new Uint8Array(MAX * 3 + 10), CHUNK_SIZES))
  })

  it('re-uses at least 90% of chunks after a 1-byte insert in the middle of 8 MiB', () => {
    const original = pseudoRandomBytes(8 * 1024 * 1024, 1234)
    const middle = original.length >> 1
    const edited = concat([
      original.subarray(0, middle),
      Uint8Array.of(42),
      original.subarray(middle),
    ])
    const known = new Set(chunkAll([original]).map((c) => sha256(c)))
    const after = chunkAll([edited])
    const reused = after.filter((c) => known.has(sha256(c))).length
    expect(reused / after.length).toBeGreaterThanOrEqual(0.9)
    expect(after.length - reused).toBeGreaterThanOrEqual(1)
  })

  it('returns views of the input for chunks inside one buffer and copies for straddling ones', () => {
    const data = pseudoRandomBytes(2 * 1024 * 1024, 55)
    const chunker = createChunker()
    const first = chunker.push(data)
    expect(first.length).toBeGreaterThan(2)
    for (const c of first) expect(c.buffer).toBe(data.buffer)
    const more = pseudoRandomBytes(1024 * 1024, 56)
    const next = [...chunker.push(more), ...chunker.end()]
    expect(next[0]?.buffer).not.toBe(more.buffer)
    expect(next[0]?.buffer).not.toBe(data.buffer)
  })

  it('never changes a straddling chunk it handed out, even when the caller reuses its input', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 1000 }),
        (size, seed) => {
          const data = pseudoRandomBytes(8_000, seed)
          const expected = cutsOf(chunkAll([data], SMALL))
          // One input buffer, overwritten before every push, like a read loop reusing its buffer.
          const scratch = new Uint8Array(size)
          const chunker = createChunker(SMALL)
          const kept: Uint8Array[] = []
          const copies: Uint8Array[] = []
          const keep = (chunks: Uint8Array[]) => {
            for (const c of chunks) {
              // Views of `scratch` are the caller's to copy; straddling chunks are ours to keep.
              kept.push(c.buffer === scratch.buffer ? c.slice() : c)
              copies.push(c.slice())
            }
          }
          for (let at = 0; at < data.length; at += size) {
            const part = data.subarray(at, at + size)
            scratch.set(part)
            keep(chunker.push(scratch.subarray(0, part.length)))
            scratch.fill(0xff)
          }
          keep(chunker.end())
          expect(cutsOf(kept)).toEqual(expected)
          kept.forEach((c, i) => expectSameBytes(c, copies[i] as Uint8Array))
          expectSameBytes(concat(kept), data)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('emits nothing for empty input and one chunk for input below the minimum', () => {
    expect(chunkAll([])).toEqual([])
    expect(chunkAll([new Uint8Array(0), new Uint8Array(0)])).toEqual([])
    const small = pseudoRandomBytes(MIN, 3)
    const chunks = chunkAll([small.subarray(0, 100), small.subarray(100)])
    expect(chunks).toHaveLength(1)
    expectSameBytes(chunks[0] as Uint8Array, small)
  })

  it('starts a fresh stream after end()', () => {
    const data = pseudoRandomBytes(700_000, 11)
    const chunker = createChunker()
    const once = [...chunker.push(data), ...chunker.end()].map((c) => c.length)
    const again = [...chunker.push(data), ...chunker.end()].map((c) => c.length)
    expect(again).toEqual(once)
  })

  it('chunks an async stream like push/end do', async () => {
    const data = pseudoRandomBytes(900_000, 21)
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < data.length; at += 50_000) yield data.slice(at, at + 50_000)
    }
    const streamed: Uint8Array[] = []
    for await (const c of chunkStream(source())) streamed.push(c)
    expect(cutsOf(streamed)).toEqual(cutsOf(chunkAll([data])))
    expectSameBytes(concat(streamed), data)
  })

  it('rejects inconsistent sizes', () => {
    expect(() => createChunker({ minSize: 0 })).toThrow(RangeError)
    expect(() => createChunker({ avgSize: 3000 })).toThrow(RangeError)
    expect(() => createChunker({ minSize: 64, avgSize: 64, maxSize: 256 })).toThrow(RangeError)
    expect(() => createChunker({ maxSize: 1000 })).toThrow(RangeError)
  })
})
