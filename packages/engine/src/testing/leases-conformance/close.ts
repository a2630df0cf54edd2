import { describe, expect, it } from 'vitest'
import { outcome } from '../meta-store-conformance/async-results'
import type { LeasesSuiteContext } from './fixture'
import { holdLock } from './fixture'

/** A closed node refuses every call and holds no lock. */
export function closeTests(ctx: LeasesSuiteContext): void {
  describe('close', () => {
    it('fails every call with CLOSED once closed', async () => {
      const { a } = await ctx.open()
      await a.close()
      expect(await outcome(a.claim('tick', 1, 1000))).toBe('CLOSED')
      expect(await outcome(a.withLock('gc', async () => 1))).toBe('CLOSED')
    })

    it('closes a second time without complaint', async () => {
      const { a } = await ctx.open()
      await a.close()
      expect(await outcome(a.close())).toBe('resolved')
    })

    it('releases the locks it holds, aborting their jobs’ signals', async () => {
      const { a, b } = await ctx.open()
      const held = await holdLock(a, 'gc', 'late')
      await a.close()
      expect(held.signal.aborted).toBe(true)
      expect(await b.withLock('gc', async () => 'taken')).toEqual({ ran: true, value: 'taken' })
      held.finish()
      expect(await held.result).toEqual({ ran: true, value: 'late' })
    })

    it('leaves claims to the other node as they were', async () => {
      const { a, b } = await ctx.open()
      const claim = await a.claim('tick', 3, 600_000)
      await a.close()
      expect(await b.claim('tick', 3, 600_000)).toBeUndefined()
      expect(claim).toBeDefined()
    })
  })
}
