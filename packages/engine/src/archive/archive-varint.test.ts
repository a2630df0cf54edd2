import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeFrameLength, MAX_LENGTH, readFrameLength } from './archive-varint'

/** Reads a length from `bytes`, returning the value or the failure reason. */
async function decode(bytes: number[]): Promise<number | string> {
  let at = 0
  try {
    return await readFrameLength(
      () => Promise.resolve(bytes[at++] ?? Number.NaN),
      (reason) => {
        throw new Error(reason)
      },
    )
  } catch (err) {
    return (err as Error).message
  }
}

describe('archive frame length varint', () => {
  it('encodes boundaries in the fewest bytes, little-endian groups of 7 bits', () => {
    const cases: [number, number[]][] = [
      [0, [0]],
      [127, [0x7f]],
      [128, [0x80, 0x01]],
      [300, [0xac, 0x02]],
      [16_383, [0xff, 0x7f]],
      [16_384, [0x80, 0x80, 0x01]],
      [2 ** 21, [0x80, 0x80, 0x80, 0x01]],
      [MAX_LENGTH, [0xff, 0xff, 0xff, 0x7f]],
    ]
    for (const [value, bytes] of cases) expect(Array.from(encodeFrameLength(value))).toEqual(bytes)
  })

  it('refuses to encode what 4 bytes cannot hold', () => {
    for (const bad of [-1, 1.5, MAX_LENGTH + 1, Number.NaN])
      expect(() => encodeFrameLength(bad)).toThrow(RangeError)
  })

  it('round-trips every value and reads no byte past the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: MAX_LENGTH }), async (value) => {
        const bytes = [...encodeFrameLength(value), 0xee]
        expect(await decode(bytes)).toBe(value)
      }),
    )
  })

  it('refuses non-minimal and over-long encodings', async () => {
    expect(await decode([0x80, 0x00])).toMatch(/not minimally encoded/)
    expect(await decode([0xff, 0x80, 0x00])).toMatch(/not minimally encoded/)
    expect(await decode([0x80, 0x80, 0x80, 0x80, 0x01])).toMatch(/longer than 4 bytes/)
    expect(await decode([0xff, 0xff, 0xff, 0xff, 0x00])).toMatch(/longer than 4 bytes/)
  })
})
