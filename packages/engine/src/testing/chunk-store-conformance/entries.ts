import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { hexOf, listEntries } from './checks'
import type { ChunkSuiteContext } from './fixture'
import { mixed } from './samples'

/** Listing committed chunks. */
export function entriesTests(ctx: ChunkSuiteContext): void {
  describe('entries', () => {
    it('lists every committed chunk once in entries(), with its stored size, and no uncommitted one', async () => {
      let f = await ctx.open()
      const chunks = mixed(14, 200)
      const results = await ctx.stageAll(f, chunks)
      await ctx.commit(f, results)
      const pending = pseudoRandomBytes(30_000, 230)
      await f.store.stage(await ctx.idOf(pending), pending)
      await f.store.flush()
      const sizes = new Map(
        await Promise.all(
          chunks.map(async (c, i) => [hexOf(await ctx.idOf(c)), results[i]?.storedBytes] as const),
        ),
      )
      for (const reopened of [false, true]) {
        if (reopened) f = await ctx.reopen(f)
        const listed = await listEntries(f.store)
        expect(listed).toHaveLength(chunks.length)
        for (const { hash, storedBytes } of listed) expect(storedBytes).toBe(sizes.get(hexOf(hash)))
        if (f.entriesInHashOrder !== false) {
          const keys = listed.map((e) => Buffer.from(e.hash))
          expect(keys).toEqual([...keys].sort(Buffer.compare))
        }
      }
    })
  })
}
