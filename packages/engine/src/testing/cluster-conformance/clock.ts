import { describe, expect, it } from 'vitest'
import type { ClusterSuiteContext } from './fixture'
import { nodeB } from './fixture'

// Clocks of one machine: the shared clock is within this of the process clock.
const SAME_MACHINE_MS = 5000

/** The shared clock: close to the process clock here, and never going backwards. */
export function clockTests(ctx: ClusterSuiteContext): void {
  describe('now', () => {
    it('is close to Date.now() on one machine', async () => {
      const { a } = await ctx.open()
      const before = Date.now()
      const now = await a.now()
      const after = Date.now()
      expect(now).toBeGreaterThan(before - SAME_MACHINE_MS)
      expect(now).toBeLessThan(after + SAME_MACHINE_MS)
    })

    it('never goes backwards, across heartbeats too', async () => {
      const { a } = await ctx.open()
      let last = await a.now()
      for (let i = 0; i < 50; i += 1) {
        if (i % 10 === 0) await a.heartbeat()
        const next = await a.now()
        expect(next).toBeGreaterThanOrEqual(last)
        last = next
      }
    })

    it('records a node’s offset near zero on one machine', async () => {
      const { a } = await ctx.open()
      await a.heartbeat()
      expect(Math.abs((await a.nodes())[0]?.offsetMs ?? Infinity)).toBeLessThan(SAME_MACHINE_MS)
    })

    if (ctx.supports.multiNode)
      it('gives two nodes of one machine nearly the same time', async () => {
        const fixture = await ctx.open()
        const b = nodeB(fixture)
        const [x, y] = await Promise.all([fixture.a.now(), b.now()])
        expect(Math.abs((x ?? 0) - (y ?? 0))).toBeLessThan(SAME_MACHINE_MS)
      })
  })
}
