import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { errorCode, sameBytes } from './checks'
import type { ChunkSuiteContext } from './fixture'
import { prose } from './samples'

/** Reading chunks back: bytes, presence, raw sizes, missing and damaged chunks. */
export function readTests(ctx: ChunkSuiteContext): void {
  describe('read, has and rawSize', () => {
    it('reads back what it stored, before and after the batch commits', async () => {
      const f = await ctx.open()
      const chunks = [
        pseudoRandomBytes(1, 1),
        pseudoRandomBytes(1000, 2),
        prose(70_000, 3),
        pseudoRandomBytes(256 * 1024, 4),
      ]
      const results = await ctx.stageAll(f, chunks)
      expect(results.every((r) => r.isNew && r.ops.length > 0 && r.storedBytes > 0)).toBe(true)
      for (const c of chunks) {
        expect(await f.store.has(await ctx.idOf(c))).toBe(true)
        expect(await f.store.has(await ctx.idOf(c), { committed: true })).toBe(false)
        expect(sameBytes(await f.store.read(await ctx.idOf(c)), c)).toBe(true)
      }
      await ctx.commit(f, results)
      for (const c of chunks) {
        expect(await f.store.has(await ctx.idOf(c))).toBe(true)
        expect(await f.store.has(await ctx.idOf(c), { committed: true })).toBe(true)
        expect(sameBytes(await f.store.read(await ctx.idOf(c)), c)).toBe(true)
      }
    })

    it('reports the real raw size of what it stored, staged or committed', async () => {
      const f = await ctx.open()
      const chunks = [pseudoRandomBytes(10, 11), prose(70_000, 12), pseudoRandomBytes(200_000, 13)]
      const missing = await ctx.idOf(pseudoRandomBytes(10, 14))
      const results = await ctx.stageAll(f, chunks)
      for (const c of chunks) {
        expect(await f.store.rawSize(await ctx.idOf(c))).toBe(c.length)
        expect(await f.store.rawSize(await ctx.idOf(c), { committed: true })).toBeUndefined()
      }
      await ctx.commit(f, results)
      for (const c of chunks) {
        expect(await f.store.rawSize(await ctx.idOf(c), { committed: true })).toBe(c.length)
      }
      expect(await f.store.rawSize(missing)).toBeUndefined()
    })

    it('reports a chunk it never stored as missing', async () => {
      const f = await ctx.open()
      const hash = await ctx.idOf(pseudoRandomBytes(100, 5))
      expect(await f.store.has(hash)).toBe(false)
      expect(await errorCode(f.store.read(hash))).toBe('NOT_FOUND')
      await ctx.commit(f, await ctx.stageAll(f, [pseudoRandomBytes(100, 6)]))
      expect(await f.store.has(hash)).toBe(false)
      expect(await errorCode(f.store.read(hash))).toBe('NOT_FOUND')
    })

    it('refuses to serve a chunk whose stored bytes were damaged', async () => {
      const f = await ctx.open()
      const damaged = [pseudoRandomBytes(40_000, 12), prose(40_000, 13)]
      const intact = pseudoRandomBytes(40_000, 14)
      await ctx.commit(f, await ctx.stageAll(f, [...damaged, intact]))
      for (const c of damaged) await f.corrupt(await ctx.idOf(c))
      for (const c of damaged) {
        expect(await errorCode(f.store.read(await ctx.idOf(c)))).toBe('CONTENT_CORRUPT')
      }
      expect(sameBytes(await f.store.read(await ctx.idOf(intact)), intact)).toBe(true)
      const g = await ctx.reopen(f)
      expect(await errorCode(g.store.read(await ctx.idOf(damaged[0] as Uint8Array)))).toBe(
        'CONTENT_CORRUPT',
      )
      expect(sameBytes(await g.store.read(await ctx.idOf(intact)), intact)).toBe(true)
    })
  })
}
