import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import type { BlobSuiteContext } from './fixture'
import { hex } from './samples'

/** `get` with a range: any part of an object, cut at its end. */
export function rangeTests(ctx: BlobSuiteContext): void {
  describe('get with a range', () => {
    const bytes = pseudoRandomBytes(10_000, 6)
    const part = (start: number, end: number): string | undefined => hex(bytes.subarray(start, end))

    it('returns the start, the middle and the end of an object', async () => {
      const { store } = await ctx.open()
      await store.put('r', bytes)
      for (const [start, end] of [
        [0, 1],
        [0, 4096],
        [1234, 5678],
        [9999, 10_000],
        [0, 10_000],
      ] as const) {
        expect(hex(await store.get('r', { start, end })), `${start}-${end}`).toBe(part(start, end))
      }
    })

    it('cuts a range at the end of the object, and returns nothing from at or past it', async () => {
      const { store } = await ctx.open()
      await store.put('r', bytes)
      expect(hex(await store.get('r', { start: 9000, end: 20_000 }))).toBe(part(9000, 10_000))
      expect(hex(await store.get('r', { start: 10_000, end: 10_010 }))).toBe('')
      expect(hex(await store.get('r', { start: 50_000, end: 60_000 }))).toBe('')
      expect(hex(await store.get('r', { start: 70, end: 70 }))).toBe('')
    })

    it('returns nothing from an empty object and undefined for a missing one', async () => {
      const { store } = await ctx.open()
      await store.put('empty', new Uint8Array(0))
      expect(hex(await store.get('empty', { start: 0, end: 10 }))).toBe('')
      expect(await store.get('missing', { start: 0, end: 10 })).toBeUndefined()
    })

    it('rejects a range that is not 0 <= start <= end with RangeError', async () => {
      const { store } = await ctx.open()
      await store.put('r', bytes)
      for (const [start, end] of [
        [5, 4],
        [-1, 4],
        [0.5, 4],
      ] as const) {
        await expect(store.get('r', { start, end }), `${start}-${end}`).rejects.toThrow(RangeError)
      }
    })
  })
}
