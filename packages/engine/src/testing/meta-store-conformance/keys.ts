import { describe, expect, it } from 'vitest'
import { collect } from './async-results'
import type { MetaSuiteContext } from './fixture'
import { line, rangeTests } from './range-cases'
import { BINARY_KEYS, TEXT_KEYS, putSamples } from './sample-keys'

/** `keys`: the keys `iterate` would yield, without values. */
export function keysTests(ctx: MetaSuiteContext): void {
  describe('keys', () => {
    it('yields binary keys in bytewise order, as bytes', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const keys = await collect(store.keys('obj'))
      expect(keys.map((key) => line(key))).toEqual(BINARY_KEYS.map((key) => line(key)))
      expect(keys.every((key) => key instanceof Uint8Array)).toBe(true)
    })

    it('yields string keys in the order of their UTF-8 bytes, as strings', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const keys = await collect(store.keys('sys'))
      expect(keys.map((key) => line(key))).toEqual(TEXT_KEYS.map((key) => line(key)))
      expect(keys.every((key) => typeof key === 'string')).toBe(true)
    })

    it('yields the keys iterate yields, in the same order', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const range = { gt: 'a', lte: '\u0800', reverse: true }
      const fromIterate = (await collect(store.iterate('sys', range))).map(([key]) => key)
      expect(await collect(store.keys('sys', range))).toEqual(fromIterate)
    })

    it('yields every key of a space larger than one read-ahead batch', async () => {
      const { store } = await ctx.open()
      const keys = Array.from({ length: 2500 }, (_, i) => `k${String(i).padStart(5, '0')}`)
      await store.batch(
        keys.map((key) => ({ type: 'put', space: 'log', key, value: new Uint8Array(0) })),
        { sync: false },
      )
      expect(await collect(store.keys('log'))).toEqual(keys)
      expect(await collect(store.keys('log', { reverse: true, limit: 1100 }))).toEqual(
        keys.slice(-1100).reverse(),
      )
    })

    rangeTests(
      ctx,
      async (store, space, range) =>
        (await collect(store.keys(space, range))).map((key) => line(key)),
      false,
    )
  })
}
