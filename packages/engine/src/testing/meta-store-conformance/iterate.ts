import { describe, expect, it } from 'vitest'
import { collect } from './async-results'
import type { MetaSuiteContext } from './fixture'
import { line, rangeTests } from './range-cases'
import { BINARY_KEYS, TEXT_KEYS, bytes, putSamples, valueAt } from './sample-keys'

/** `iterate`: ordered entries of a space, within a range. */
export function iterateTests(ctx: MetaSuiteContext): void {
  describe('iterate', () => {
    it('yields binary keys in bytewise order with their values, whatever order they were written in', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const entries = await collect(store.iterate('obj'))
      expect(entries.map(([key, value]) => line(key, value))).toEqual(
        BINARY_KEYS.map((key, i) => line(key, valueAt(i))),
      )
      expect(entries.every(([key]) => key instanceof Uint8Array)).toBe(true)
    })

    it('yields string keys in the order of their UTF-8 bytes, not of UTF-16 code units', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const entries = await collect(store.iterate('sys'))
      expect(entries.map(([key, value]) => line(key, value))).toEqual(
        TEXT_KEYS.map((key, i) => line(key, valueAt(i))),
      )
      expect(entries.every(([key]) => typeof key === 'string')).toBe(true)
    })

    it('yields nothing from an empty space', async () => {
      const { store } = await ctx.open()
      expect(await collect(store.iterate('obj'))).toEqual([])
      expect(await collect(store.iterate('sys', { reverse: true }))).toEqual([])
    })

    it('yields the current value of an overwritten key and skips a deleted one', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      await store.batch(
        [
          { type: 'put', space: 'obj', key: bytes(0x7f), value: bytes(1, 2, 3) },
          { type: 'del', space: 'obj', key: bytes(0x80) },
        ],
        { sync: false },
      )
      const entries = await collect(store.iterate('obj', { gte: bytes(0x7f), lt: bytes(0xfe) }))
      expect(entries.map(([key, value]) => line(key, value))).toEqual([
        line(bytes(0x7f), bytes(1, 2, 3)),
        line(bytes(0x7f, 0xff, 0xff), valueAt(5)),
        line(bytes(0x80, 0x00), valueAt(7)),
      ])
    })

    rangeTests(
      ctx,
      async (store, space, range) =>
        (await collect(store.iterate(space, range))).map(([key, value]) => line(key, value)),
      true,
    )
  })
}
