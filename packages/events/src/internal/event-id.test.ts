import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createBootId, formatEventId, isBootId, parseEventId } from './event-id'

describe('event ids', () => {
  it('round-trips boot and sequence number', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-z]{1,32}$/),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (boot, seq) => {
          expect(parseEventId(formatEventId(boot, seq))).toEqual({ boot, seq })
        },
      ),
    )
  })

  it('rejects ids that are not <boot>-<seq>', () => {
    for (const id of ['', '-', 'abc', 'abc-', '-1', 'abc-0', 'abc-01', 'ABC-1', 'a-b-1', 'a-1.5'])
      expect(parseEventId(id), id).toBeUndefined()
    expect(parseEventId('abc-99999999999999999')).toBeUndefined()
  })

  it('makes boot ids that are valid, differ, and sort by start time', () => {
    const a = createBootId(Date.UTC(2024, 0, 1))
    const b = createBootId(Date.UTC(2024, 0, 1))
    const later = createBootId(Date.UTC(2030, 0, 1))
    expect(isBootId(a)).toBe(true)
    expect(a).toHaveLength(12)
    expect(a.slice(0, 8)).toBe(b.slice(0, 8))
    expect(later > a && later > b).toBe(true)
    const many = new Set(Array.from({ length: 50 }, () => createBootId(0)))
    expect(many.size).toBeGreaterThan(45)
  })
})
