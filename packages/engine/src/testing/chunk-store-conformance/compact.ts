import { describe, expect, it } from 'vitest'
import { compactVia, errorCode, expectState, withRemoved } from './checks'
import type { ChunkSuiteContext } from './fixture'
import { mixed } from './samples'

/** Compaction: live chunks kept, space reclaimed, aborts and failed commits. */
export function compactTests(ctx: ChunkSuiteContext): void {
  describe('compact', () => {
    it('keeps live chunks byte-identical through compaction and a reopen, and frees what it reports', async () => {
      let f = await ctx.open()
      const chunks = mixed(36, 300)
      // Every other chunk dies, and so does the whole last third.
      const live = chunks.filter((_, i) => i % 2 === 0 && i < 24)
      const dead = chunks.filter((c) => !live.includes(c))
      const removed = await withRemoved(ctx, f, live, dead)
      const before = await f.footprint()
      const { report, commits } = await compactVia(f)
      expect(commits).toBeLessThanOrEqual(1)
      expect(before - (await f.footprint())).toBe(report.reclaimedBytes)
      for (const value of Object.values(report)) expect(value).toBeGreaterThanOrEqual(0)
      await expectState(ctx, f, live, removed)
      // A second compaction right away finds nothing more to do.
      const second = await compactVia(f)
      expect(second.commits).toBe(0)
      expect(second.report).toEqual({
        ...report,
        packsRewritten: 0,
        packsRemoved: 0,
        movedBytes: 0,
        reclaimedBytes: 0,
      })
      f = await ctx.reopen(f)
      await expectState(ctx, f, live, removed)
    })

    it('rejects with ABORTED and changes nothing when the signal has fired', async () => {
      const f = await ctx.open()
      const live = mixed(10, 400)
      const removed = await withRemoved(ctx, f, live, mixed(20, 420))
      const before = await f.footprint()
      const aborted = new AbortController()
      aborted.abort()
      let commits = 0
      const pending = f.store.compact({
        signal: aborted.signal,
        commit: async () => void commits++,
      })
      expect(await errorCode(pending)).toBe('ABORTED')
      expect(commits).toBe(0)
      expect(await f.footprint()).toBe(before)
      await expectState(ctx, f, live, removed)
    })

    it('leaves everything readable when the compaction commit fails', async () => {
      let f = await ctx.open()
      const live = mixed(12, 500)
      const removed = await withRemoved(ctx, f, live, mixed(24, 520))
      const failure = new Error('commit failed')
      let called = false
      const outcome = await compactVia(f, {}, async () => {
        called = true
        throw failure
      }).then(
        () => 'resolved',
        (err: unknown) => err,
      )
      expect(outcome).toBe(called ? failure : 'resolved')
      await expectState(ctx, f, live, removed)
      f = await ctx.reopen(f)
      await expectState(ctx, f, live, removed)
      await compactVia(f)
      await expectState(ctx, f, live, removed)
    })

    it('rejects a minDeadRatio outside [0, 1]', async () => {
      const f = await ctx.open()
      for (const minDeadRatio of [-0.1, 1.5, Number.NaN]) {
        await expect(
          f.store.compact({ minDeadRatio, commit: async () => undefined }),
        ).rejects.toThrow(RangeError)
      }
    })
  })
}
