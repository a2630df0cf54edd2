import { describe, expect, it } from 'vitest'
import { createManualClock } from '../testing/manual-clock'
import { createRequestLimiter } from './request-limiter'

describe('request limiter', () => {
  it('allows a burst per client, then refills evenly over a minute', () => {
    const clock = createManualClock()
    const limiter = createRequestLimiter({ perClientPerMinute: 3 }, () => clock.now())
    for (let i = 0; i < 3; i++) expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a')).toEqual({ allowed: false, scope: 'client', retryAfterMs: 20_000 })
    expect(limiter.take('b').allowed).toBe(true)
    clock.advance(19_999)
    expect(limiter.take('a').allowed).toBe(false)
    clock.advance(1)
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a').allowed).toBe(false)
  })

  it('holds every client together to the global limit', () => {
    const clock = createManualClock()
    const limiter = createRequestLimiter({ perClientPerMinute: 5, globalPerMinute: 12 }, () =>
      clock.now(),
    )
    const allowed = ['a', 'b', 'c']
      .flatMap((client) => Array.from({ length: 5 }, () => limiter.take(client)))
      .filter((d) => d.allowed)
    expect(allowed).toHaveLength(12)
    expect(limiter.take('d')).toEqual({ allowed: false, scope: 'global', retryAfterMs: 5000 })
  })

  it('remembers at most maxClients, dropping the least recently seen', () => {
    const clock = createManualClock()
    const limiter = createRequestLimiter(
      { perClientPerMinute: 1, globalPerMinute: 1_000_000, maxClients: 100 },
      () => clock.now(),
    )
    limiter.take('kept')
    for (let i = 0; i < 10_000; i++) {
      limiter.take(`client-${i}`)
      if (i % 50 === 0) expect(limiter.take('kept').allowed).toBe(false)
      expect(limiter.clients).toBeLessThanOrEqual(100)
    }
  })

  it('refuses limits that are not positive integers', () => {
    expect(() => createRequestLimiter({ perClientPerMinute: 0 }, () => 0)).toThrow(RangeError)
    expect(() => createRequestLimiter({ globalPerMinute: 1.5 }, () => 0)).toThrow(RangeError)
  })
})
