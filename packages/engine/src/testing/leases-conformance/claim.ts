import { describe, expect, it } from 'vitest'
import { outcome } from '../meta-store-conformance/async-results'
import type { LeasesSuiteContext } from './fixture'
import { pause } from './fixture'

// Long enough never to expire during a test; short enough to wait out.
const LONG_TTL = 600_000
const SHORT_TTL = 30
const PAST_SHORT_TTL = 150

/** Claims: once per (job, slot) across nodes; takeover after expiry only, never after finish. */
export function claimTests(ctx: LeasesSuiteContext): void {
  describe('claim', () => {
    it('gives the first caller a claim and every later one, on either node, nothing', async () => {
      const { a, b } = await ctx.open()
      const claim = await a.claim('nightly', 1_700_000_000_000, LONG_TTL)
      expect(claim).toMatchObject({ job: 'nightly', slot: 1_700_000_000_000 })
      expect(await a.claim('nightly', 1_700_000_000_000, LONG_TTL)).toBeUndefined()
      expect(await b.claim('nightly', 1_700_000_000_000, LONG_TTL)).toBeUndefined()
    })

    it('gives exactly one of 20 concurrent claimers on two nodes the slot', async () => {
      const { a, b } = await ctx.open()
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).claim('tick', 42, LONG_TTL)),
      )
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1)
    })

    it('keeps slots and jobs independent of each other', async () => {
      const { a, b } = await ctx.open()
      expect(await a.claim('tick', 1, LONG_TTL)).toBeDefined()
      expect(await b.claim('tick', 2, LONG_TTL)).toBeDefined()
      expect(await b.claim('other', 1, LONG_TTL)).toBeDefined()
      expect(await a.claim('tick', 0, LONG_TTL)).toBeDefined()
      expect(await a.claim('tick', -5, LONG_TTL)).toBeDefined()
      expect(await b.claim('tick', 1, LONG_TTL)).toBeUndefined()
      expect(await a.claim('other', 1, LONG_TTL)).toBeUndefined()
    })

    it('keeps a finished slot from ever being claimed again', async () => {
      const { a, b } = await ctx.open()
      const claim = await a.claim('tick', 7, SHORT_TTL)
      expect(await claim?.finish()).toBe(true)
      await pause(PAST_SHORT_TTL)
      expect(await b.claim('tick', 7, SHORT_TTL)).toBeUndefined()
      expect(await a.claim('tick', 7, SHORT_TTL)).toBeUndefined()
    })

    it('lets an unfinished claim be taken over only once it expired', async () => {
      const { a, b } = await ctx.open()
      const first = await a.claim('tick', 8, SHORT_TTL)
      expect(first).toBeDefined()
      await pause(PAST_SHORT_TTL)
      const second = await b.claim('tick', 8, LONG_TTL)
      expect(second).toMatchObject({ job: 'tick', slot: 8 })
      // The takeover holds for its own ttl: nobody takes it back.
      expect(await a.claim('tick', 8, LONG_TTL)).toBeUndefined()
      expect(await first?.finish()).toBe(false)
      expect(await second?.finish()).toBe(true)
      expect(await a.claim('tick', 8, LONG_TTL)).toBeUndefined()
    })

    it('does not let an unexpired claim be taken over', async () => {
      const { a, b } = await ctx.open()
      const first = await a.claim('tick', 9, LONG_TTL)
      await pause(PAST_SHORT_TTL)
      expect(await b.claim('tick', 9, SHORT_TTL)).toBeUndefined()
      expect(await first?.finish()).toBe(true)
    })

    it('gives an expired slot to exactly one of 20 concurrent claimers', async () => {
      const { a, b } = await ctx.open()
      expect(await a.claim('tick', 10, SHORT_TTL)).toBeDefined()
      await pause(PAST_SHORT_TTL)
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).claim('tick', 10, LONG_TTL)),
      )
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1)
    })

    it('answers a second finish() as the first', async () => {
      const { a } = await ctx.open()
      const claim = await a.claim('tick', 11, LONG_TTL)
      expect(await claim?.finish()).toBe(true)
      expect(await claim?.finish()).toBe(true)
    })

    it('refuses malformed arguments with INVALID_INPUT', async () => {
      const { a } = await ctx.open()
      expect(await outcome(a.claim('', 1, LONG_TTL))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('x'.repeat(201), 1, LONG_TTL))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('tick', 1.5, LONG_TTL))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('tick', Number.NaN, LONG_TTL))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('tick', 2 ** 60, LONG_TTL))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('tick', 1, 0))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('tick', 1, -1))).toBe('INVALID_INPUT')
      expect(await outcome(a.claim('tick', 1, 0.5))).toBe('INVALID_INPUT')
      // Nothing was claimed by the refused calls.
      expect(await a.claim('tick', 1, LONG_TTL)).toBeDefined()
    })
  })
}
