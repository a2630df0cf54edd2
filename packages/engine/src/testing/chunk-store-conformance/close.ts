import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { errorCode, listEntries } from './checks'
import type { ChunkSuiteContext } from './fixture'

/** A closed store refuses every operation. */
export function closeTests(ctx: ChunkSuiteContext): void {
  describe('close', () => {
    it('answers CLOSED once closed', async () => {
      const f = await ctx.open()
      const chunk = pseudoRandomBytes(1000, 17)
      const hash = await ctx.idOf(chunk)
      await ctx.commit(f, await ctx.stageAll(f, [chunk]))
      await f.store.close()
      expect(await errorCode(f.store.read(hash))).toBe('CLOSED')
      expect(await errorCode(f.store.stage(hash, chunk))).toBe('CLOSED')
      expect(await errorCode(f.store.has(hash))).toBe('CLOSED')
      expect(await errorCode(f.store.flush())).toBe('CLOSED')
      expect(await errorCode(listEntries(f.store))).toBe('CLOSED')
      expect(await errorCode(f.store.compact({ commit: async () => undefined }))).toBe('CLOSED')
      expect(() => f.store.removeOps(hash)).toThrow(expect.objectContaining({ code: 'CLOSED' }))
    })
  })
}
