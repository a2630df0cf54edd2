import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createUuidV7Generator } from './uuid-v7'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('createUuidV7Generator', () => {
  it('makes RFC 9562 version 7 UUIDs carrying the time', () => {
    const at = Date.UTC(2026, 0, 1)
    const id = createUuidV7Generator(() => at)()
    expect(id).toMatch(UUID_V7)
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at)
  })

  it('sorts ids in the order they were made, whatever the clock does', () => {
    const times = fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: 1, maxLength: 200 })
    fc.assert(
      fc.property(times, fc.boolean(), (readings, stuck) => {
        let i = 0
        // A stuck clock exercises the counter, including its overflow into the time.
        const generate = createUuidV7Generator(() =>
          stuck ? 1000 : (readings[i++ % readings.length] ?? 0),
        )
        const ids = Array.from({ length: stuck ? 5000 : readings.length }, generate)
        for (const id of ids) expect(id).toMatch(UUID_V7)
        expect([...ids].sort()).toEqual(ids)
        expect(new Set(ids).size).toBe(ids.length)
      }),
      { numRuns: 30 },
    )
  })
})
