import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createJsGearScanner, defaultGearScanner } from './gear-scan'
import type { GearScanner } from './gear-scanner'
import { createWasmGearScanner, GEAR_SCAN_WASM } from './gear-scan-wasm'
import { GEAR } from './gear-table'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

/** The gear roll written as plainly as possible: unsigned arithmetic, one byte at a time. */
function referenceScan(data: Uint8Array, from: number, to: number, hash: number, mask: number) {
  let h = hash >>> 0
  for (let i = from; i < to; i++) {
    h = (h * 2 + ((GEAR[data[i] as number] as number) >>> 0)) % 2 ** 32
    if ((h & mask) === 0) return { cut: i + 1, hash: h | 0 }
  }
  return { cut: -1, hash: h | 0 }
}

/** Every cut of `data` under `mask`, restarting the hash at 0 after each, as the chunker does. */
function allCuts(scanner: GearScanner, data: Uint8Array, mask: number): number[] {
  const cuts: number[] = []
  for (let at = 0; ;) {
    const cut = scanner.scan(data, at, data.length, 0, mask)
    if (cut < 0) return cuts
    cuts.push(cut)
    at = cut
  }
}

const scanners: [string, GearScanner][] = [
  ['wasm', createWasmGearScanner() as GearScanner],
  ['js', createJsGearScanner()],
]

describe('gear-scan', () => {
  it('runs the WebAssembly loop in Node, and by default', () => {
    expect(scanners[0]?.[1]).toBeDefined()
    expect(WebAssembly.validate(GEAR_SCAN_WASM)).toBe(true)
    expect(defaultGearScanner()).toBe(defaultGearScanner())
  })

  for (const [name, scanner] of scanners) {
    describe(name, () => {
      it('finds the first cut and rolls the hash exactly like a plain loop, for any range', () => {
        fc.assert(
          fc.property(
            fc.uint8Array({ minLength: 0, maxLength: 3000, size: 'max' }),
            fc.nat(),
            fc.nat(),
            fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
            fc.oneof(
              fc.integer({ min: 0, max: 14 }).map((bits) => (0xffffffff << (32 - bits)) | 0),
              fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
            ),
            (data, a, b, hash, mask) => {
              const from = Math.min(a, b) % (data.length + 1)
              const to = from + (Math.max(a, b) % (data.length - from + 1))
              const expected = referenceScan(data, from, to, hash, mask)
              const cut = scanner.scan(data, from, to, hash, mask)
              expect(cut).toBe(expected.cut)
              if (cut < 0) expect(scanner.hash).toBe(expected.hash)
            },
          ),
          { numRuns: 500 },
        )
      })

      it('scans ranges longer than its window (and at an offset) without losing a byte', () => {
        const data = pseudoRandomBytes(3 * 1024 * 1024 + 7, 77)
        const mask = (0xffffffff << 13) | 0 // top 19 bits: a cut every 512 KiB or so
        const expected: number[] = []
        for (let at = 1; ;) {
          const { cut } = referenceScan(data, at, data.length, 0, mask)
          if (cut < 0) break
          expected.push(cut - 1)
          at = cut
        }
        expect(expected.length).toBeGreaterThan(2)
        expect(expected.some((cut, i) => cut - (expected[i - 1] ?? 0) > 300_000)).toBe(true)
        expect(allCuts(scanner, data.subarray(1), mask)).toEqual(expected)
        const never = 0 // with no bits in the mask every byte cuts; with all, only a zero hash
        expect(scanner.scan(data, 5, 6, 0, never)).toBe(6)
        const whole = referenceScan(data, 3, data.length, 123, -1)
        expect(scanner.scan(data, 3, data.length, 123, -1)).toBe(whole.cut)
        if (whole.cut < 0) expect(scanner.hash).toBe(whole.hash)
      })

      it('returns no cut and the hash it was given for an empty range', () => {
        const data = pseudoRandomBytes(10, 1)
        expect(scanner.scan(data, 4, 4, -5, 0)).toBe(-1)
        expect(scanner.hash).toBe(-5)
      })
    })
  }
})
