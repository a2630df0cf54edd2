import { describe, expect, it } from 'vitest'
import type { StageResult } from '../../chunks/chunk-store'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { sameBytes } from './checks'
import type { ChunkSuiteContext } from './fixture'
import { prose } from './samples'

/** Staging chunks: de-duplication, concurrent writers, compression, hash checks. */
export function stageTests(ctx: ChunkSuiteContext): void {
  describe('stage', () => {
    it('stores a chunk staged again after its commit only once', async () => {
      const f = await ctx.open()
      const chunk = pseudoRandomBytes(50_000, 7)
      await ctx.commit(f, await ctx.stageAll(f, [chunk]))
      const before = await f.footprint()
      const again = await f.store.stage(await ctx.idOf(chunk), chunk)
      expect(again.isNew).toBe(false)
      expect(again.storedBytes).toBe(0)
      await ctx.commit(f, [again])
      expect(await f.footprint()).toBe(before)
      expect(sameBytes(await f.store.read(await ctx.idOf(chunk)), chunk)).toBe(true)
    })

    it('gives a second writer of an uncommitted chunk the ops that make it findable', async () => {
      const f = await ctx.open()
      const chunk = pseudoRandomBytes(30_000, 8)
      const first = await f.store.stage(await ctx.idOf(chunk), chunk)
      const second = await f.store.stage(await ctx.idOf(chunk), chunk)
      expect(first.isNew).toBe(true)
      expect(second.isNew).toBe(false)
      expect(second.storedBytes).toBe(0)
      expect(second.ops.length).toBeGreaterThan(0)
      // Only the second writer's batch commits; the chunk must survive on its ops alone.
      await ctx.commit(f, [second])
      const g = await ctx.reopen(f)
      expect(sameBytes(await g.store.read(await ctx.idOf(chunk)), chunk)).toBe(true)
    })

    it('stores concurrent stages of one hash once', async () => {
      const f = await ctx.open()
      const chunk = pseudoRandomBytes(100_000, 9)
      const hash = await ctx.idOf(chunk)
      const before = await f.footprint()
      const results = await Promise.all(Array.from({ length: 8 }, () => f.store.stage(hash, chunk)))
      expect(results.filter((r) => r.isNew)).toHaveLength(1)
      expect(results.every((r) => r.ops.length > 0)).toBe(true)
      await ctx.commit(f, results)
      const stored = results.reduce((sum, r) => sum + r.storedBytes, 0)
      expect(stored).toBeGreaterThanOrEqual(chunk.length)
      expect((await f.footprint()) - before).toBe(stored)
      expect(sameBytes(await f.store.read(hash), chunk)).toBe(true)
    })

    it('stores compressible chunks in fewer bytes than their size, random ones not', async () => {
      const f = await ctx.open()
      const text = prose(64 * 1024, 10)
      const random = pseudoRandomBytes(64 * 1024, 11)
      const [t, r] = await ctx.stageAll(f, [text, random])
      expect(t?.storedBytes).toBeLessThan(text.length * 0.9)
      expect(r?.storedBytes).toBeGreaterThanOrEqual(random.length)
      await ctx.commit(f, [t as StageResult, r as StageResult])
      const g = await ctx.reopen(f)
      expect(sameBytes(await g.store.read(await ctx.idOf(text)), text)).toBe(true)
      expect(sameBytes(await g.store.read(await ctx.idOf(random)), random)).toBe(true)
    })

    it('rejects hashes that are not 32 bytes', async () => {
      const f = await ctx.open()
      await expect(f.store.stage(new Uint8Array(20), pseudoRandomBytes(10, 18))).rejects.toThrow(
        RangeError,
      )
      await expect(f.store.read(new Uint8Array(33))).rejects.toThrow(RangeError)
    })
  })
}
