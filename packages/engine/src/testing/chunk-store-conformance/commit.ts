import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { errorCode, sameBytes } from './checks'
import type { ChunkSuiteContext } from './fixture'
import { prose } from './samples'

/** The commit protocol (flush, one batch, committed()) and what survives a reopen. */
export function commitTests(ctx: ChunkSuiteContext): void {
  describe('flush and committed, across reopens', () => {
    it('keeps committed chunks across a reopen, over several groups', async () => {
      let f = await ctx.open()
      const groups = [0, 1, 2].map((g) =>
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? prose : pseudoRandomBytes)(5000 + g * 997 + i * 31, g * 10 + i),
        ),
      )
      for (const group of groups) await ctx.commit(f, await ctx.stageAll(f, group))
      f = await ctx.reopen(f)
      for (const c of groups.flat()) {
        expect(await f.store.has(await ctx.idOf(c))).toBe(true)
        expect(sameBytes(await f.store.read(await ctx.idOf(c)), c)).toBe(true)
      }
      const later = pseudoRandomBytes(20_000, 99)
      await ctx.commit(f, await ctx.stageAll(f, [later]))
      f = await ctx.reopen(f)
      expect(sameBytes(await f.store.read(await ctx.idOf(later)), later)).toBe(true)
      expect(sameBytes(await f.store.read(await ctx.idOf(groups[0]![0]!)), groups[0]![0]!)).toBe(
        true,
      )
    })

    it('commits concurrent groups that share flushes', async () => {
      let f = await ctx.open()
      const groups = [0, 1, 2, 3].map((g) =>
        Array.from({ length: 5 }, (_, i) => pseudoRandomBytes(3000 + i * 101, 500 + g * 10 + i)),
      )
      await Promise.all(groups.map(async (group) => ctx.commit(f, await ctx.stageAll(f, group))))
      f = await ctx.reopen(f)
      for (const c of groups.flat())
        expect(sameBytes(await f.store.read(await ctx.idOf(c)), c)).toBe(true)
    })

    it('forgets chunks whose batch never committed once reopened', async () => {
      const f = await ctx.open()
      const kept = pseudoRandomBytes(20_000, 15)
      const lost = pseudoRandomBytes(20_000, 16)
      await ctx.commit(f, await ctx.stageAll(f, [kept]))
      await f.store.stage(await ctx.idOf(lost), lost)
      await f.store.flush()
      const g = await ctx.reopen(f)
      expect(await g.store.has(await ctx.idOf(lost))).toBe(false)
      expect(await errorCode(g.store.read(await ctx.idOf(lost)))).toBe('NOT_FOUND')
      const again = await g.store.stage(await ctx.idOf(lost), lost)
      expect(again.isNew).toBe(true)
      await ctx.commit(g, [again])
      expect(sameBytes(await g.store.read(await ctx.idOf(lost)), lost)).toBe(true)
      expect(sameBytes(await g.store.read(await ctx.idOf(kept)), kept)).toBe(true)
    })
  })
}
