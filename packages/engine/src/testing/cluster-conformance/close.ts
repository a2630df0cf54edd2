import { describe, expect, it } from 'vitest'
import { outcome } from '../meta-store-conformance/async-results'
import type { ClusterSuiteContext } from './fixture'

/** A closed node refuses every call. */
export function closeTests(ctx: ClusterSuiteContext): void {
  describe('close', () => {
    it('fails every call with CLOSED once closed', async () => {
      const { a } = await ctx.open()
      await a.heartbeat()
      await a.close()
      expect(await outcome(a.heartbeat())).toBe('CLOSED')
      expect(await outcome(a.nodes())).toBe('CLOSED')
      expect(await outcome(a.now())).toBe('CLOSED')
    })

    it('closes a second time without complaint', async () => {
      const { a } = await ctx.open()
      await a.close()
      expect(await outcome(a.close())).toBe('resolved')
    })
  })
}
