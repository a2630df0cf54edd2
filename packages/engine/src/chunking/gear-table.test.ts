import { describe, expect, it } from 'vitest'
import { GEAR, GEAR_SEED } from './gear-table'

/** SplitMix64 as published (Steele, Lea, Flood 2014), written out independently of the module. */
function splitMix64(seed: bigint, count: number): bigint[] {
  const out: bigint[] = []
  let state = seed
  for (let i = 0; i < count; i++) {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n)
    let z = state
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n)
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn)
    out.push(z ^ (z >> 31n))
  }
  return out
}

describe('gear-table', () => {
  it('holds 256 values', () => {
    expect(GEAR.length).toBe(256)
  })

  it('is the upper half of the documented SplitMix64 sequence', () => {
    const expected = splitMix64(GEAR_SEED, 256).map((v) => Number(v >> 32n))
    expect([...GEAR].map((v) => v >>> 0)).toEqual(expected)
  })

  it('keeps the values frozen by the storage format', () => {
    // A format freeze, not a computed result: these values decide every stored chunk boundary.
    expect(GEAR_SEED).toBe(0x73766364622d6731n)
    expect([GEAR[0], GEAR[1], GEAR[2], GEAR[3], GEAR[255]].map((v) => (v as number) >>> 0)).toEqual(
      [0x545017c7, 0x9450eada, 0x2c9c700d, 0x828fff25, 0x99cf7b56],
    )
  })

  it('has distinct values with balanced bits', () => {
    expect(new Set(GEAR).size).toBe(256)
    for (let bit = 0; bit < 32; bit++) {
      const ones = [...GEAR].filter((v) => ((v >>> bit) & 1) === 1).length
      expect(ones).toBeGreaterThan(96)
      expect(ones).toBeLessThan(160)
    }
  })
})
