import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { errorCode, expectState, withRemoved } from './checks'
import type { ChunkSuiteContext } from './fixture'
import { prose } from './samples'

/** Removing chunks through `removeOps`. */
export function removeTests(ctx: ChunkSuiteContext): void {
  describe('removeOps', () => {
    it('forgets a removed chunk once the removal commits, and stores it again when staged later', async () => {
      let f = await ctx.open()
      const [small, large, kept] = [
        pseudoRandomBytes(2000, 240),
        pseudoRandomBytes(90_000, 241),
        prose(50_000, 242),
      ]
      const removed = await withRemoved(ctx, f, [kept], [small, large] as Uint8Array[])
      await expectState(ctx, f, [kept], removed)
      // A chunk committed but still staged (committed() not called yet), then removed.
      const fresh = pseudoRandomBytes(40_000, 243)
      const staged = await f.store.stage(await ctx.idOf(fresh), fresh)
      await f.meta.batch([...staged.ops, ...(await f.store.flush())], { sync: true })
      await f.meta.batch(f.store.removeOps(await ctx.idOf(fresh)), { sync: true })
      expect(await f.store.has(await ctx.idOf(fresh))).toBe(false)
      expect(await errorCode(f.store.read(await ctx.idOf(fresh)))).toBe('NOT_FOUND')
      f.store.committed()
      // Removing a chunk that was never stored is harmless.
      await f.meta.batch(f.store.removeOps(await ctx.idOf(pseudoRandomBytes(10, 244))), {
        sync: true,
      })
      const again = await ctx.stageAll(f, [small, fresh])
      expect(again.every((r) => r.isNew && r.storedBytes > 0)).toBe(true)
      await ctx.commit(f, again)
      f = await ctx.reopen(f)
      await expectState(ctx, f, [kept, small, fresh], [await ctx.idOf(large)])
    })
  })
}
