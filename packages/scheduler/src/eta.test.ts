import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { estimateEta } from './eta'

const T0 = Date.UTC(2026, 0, 1)

describe('estimateEta', () => {
  it('extrapolates the average rate since the start, as an absolute time', () => {
    expect(estimateEta(T0, 0.25, T0 + 10_000)).toBe(T0 + 40_000)
    expect(estimateEta(T0, 0.5, T0 + 10_000)).toBe(T0 + 20_000)
    expect(estimateEta(T0, 1, T0 + 10_000)).toBe(T0 + 10_000)
  })

  it('has no estimate before any progress or when the clock reads before the start', () => {
    expect(estimateEta(T0, 0, T0 + 10_000)).toBeUndefined()
    expect(estimateEta(T0, 0.5, T0 - 1)).toBeUndefined()
    expect(estimateEta(T0, Number.NaN, T0 + 1)).toBeUndefined()
    expect(estimateEta(T0, 1.5, T0 + 1)).toBeUndefined()
  })

  const start = fc.integer({ min: T0, max: T0 + 1e9 })
  const elapsed = fc.integer({ min: 0, max: 1e9 })
  const progress = fc.double({ min: 1e-6, max: 1, noNaN: true })

  it('is a whole number no earlier than now', () => {
    fc.assert(
      fc.property(start, elapsed, progress, (s, e, p) => {
        const eta = estimateEta(s, p, s + e)
        expect(Number.isSafeInteger(eta)).toBe(true)
        expect(eta).toBeGreaterThanOrEqual(s + e)
      }),
    )
  })

  it('is never later for more progress at the same moment', () => {
    fc.assert(
      fc.property(start, elapsed, progress, progress, (s, e, p, q) => {
        const [low, high] = p < q ? [p, q] : [q, p]
        expect(estimateEta(s, high, s + e)).toBeLessThanOrEqual(estimateEta(s, low, s + e) ?? 0)
      }),
    )
  })

  it('finds the true end of a task that progresses at a constant rate', () => {
    fc.assert(
      fc.property(start, fc.integer({ min: 1000, max: 1e8 }), progress, (s, duration, p) => {
        const now = s + Math.round(duration * p)
        const eta = estimateEta(s, p, now) ?? 0
        // Only the rounding of `now` to whole ms blurs it, magnified by 1/p.
        expect(Math.abs(eta - (s + duration))).toBeLessThanOrEqual(1 + 1 / p)
      }),
    )
  })
})
