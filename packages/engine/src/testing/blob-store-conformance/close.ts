import { describe, expect, it } from 'vitest'
import { collect, outcome } from '../meta-store-conformance/async-results'
import type { BlobSuiteContext } from './fixture'

/** A closed store refuses every call. */
export function closeTests(ctx: BlobSuiteContext): void {
  describe('close', () => {
    it('fails every call with CLOSED once closed', async () => {
      const { store } = await ctx.open()
      await store.put('k', Uint8Array.of(1))
      await store.close()
      expect(await outcome(store.put('k', Uint8Array.of(2)))).toBe('CLOSED')
      expect(await outcome(store.get('k'))).toBe('CLOSED')
      expect(await outcome(store.get('k', { start: 0, end: 1 }))).toBe('CLOSED')
      expect(await outcome(store.delete(['k']))).toBe('CLOSED')
      expect(await outcome(collect(store.list('')))).toBe('CLOSED')
      expect(await outcome(collect(store.list('k')))).toBe('CLOSED')
    })

    it('closes a second time without complaint', async () => {
      const { store } = await ctx.open()
      await store.close()
      expect(await outcome(store.close())).toBe('resolved')
    })
  })
}
