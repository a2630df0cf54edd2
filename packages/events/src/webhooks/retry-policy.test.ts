import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelay } from './retry-policy'

describe('retry policy', () => {
  it('backs off exponentially up to the cap', () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, factor: 3, maxDelayMs: 2_000 })
    expect([1, 2, 3, 4, 5, 30].map((n) => retryDelay(policy, n))).toEqual([
      100, 300, 900, 2_000, 2_000, 2_000,
    ])
  })

  it('defaults to 1 s doubling, capped at an hour, 10 attempts', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      baseDelayMs: 1_000,
      factor: 2,
      maxDelayMs: 3_600_000,
      maxAttempts: 10,
    })
    expect(retryDelay(DEFAULT_RETRY_POLICY, 9)).toBe(256_000)
    expect(retryDelay(DEFAULT_RETRY_POLICY, 40)).toBe(3_600_000)
    expect(resolveRetryPolicy({ maxAttempts: 3 })).toEqual({
      ...DEFAULT_RETRY_POLICY,
      maxAttempts: 3,
    })
  })

  it('refuses nonsense', () => {
    expect(() => resolveRetryPolicy({ baseDelayMs: -1 })).toThrow(RangeError)
    expect(() => resolveRetryPolicy({ factor: 0.5 })).toThrow(RangeError)
    expect(() => resolveRetryPolicy({ maxDelayMs: 10, baseDelayMs: 100 })).toThrow(RangeError)
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(RangeError)
  })
})
