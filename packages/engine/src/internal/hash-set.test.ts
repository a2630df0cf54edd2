import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toHex } from './hex'
import { HashSet } from './hash-set'

const hashOf = (i: number) => new Uint8Array(createHash('sha256').update(String(i)).digest())

describe('HashSet', () => {
  it('agrees with a Set of hex strings through growth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 0, maxLength: 3000 }),
        (ids) => {
          const set = new HashSet(4)
          const reference = new Set<string>()
          for (const id of ids) {
            const hash = hashOf(id)
            expect(set.add(hash)).toBe(!reference.has(toHex(hash)))
            reference.add(toHex(hash))
          }
          expect(set.size).toBe(reference.size)
          for (let id = 0; id <= 5000; id += 7) {
            expect(set.has(hashOf(id))).toBe(reference.has(toHex(hashOf(id))))
          }
          expect(new Set([...set.values()].map(toHex))).toEqual(reference)
        },
      ),
      { numRuns: 30 },
    )
  })

  it('keeps hashes that collide on their first bytes apart', () => {
    const set = new HashSet(4)
    const a = new Uint8Array(32)
    const b = new Uint8Array(32)
    b[31] = 1
    expect(set.add(a)).toBe(true)
    expect(set.add(b)).toBe(true)
    expect(set.has(a) && set.has(b)).toBe(true)
    expect(set.size).toBe(2)
    expect(() => set.add(new Uint8Array(31))).toThrow(RangeError)
  })
})
