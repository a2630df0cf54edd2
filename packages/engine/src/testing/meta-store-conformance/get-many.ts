import { describe, expect, it } from 'vitest'
import type { MetaSuiteContext } from './fixture'
import { show } from './key-order'
import { BINARY_KEYS, TEXT_KEYS, bytes, putSamples, valueAt } from './sample-keys'

const shownAll = (values: (Uint8Array | undefined)[]): (string | undefined)[] =>
  values.map((value) => (value === undefined ? undefined : show(value)))

/** `getMany`: several keys' values, in the order asked. */
export function getManyTests(ctx: MetaSuiteContext): void {
  describe('getMany', () => {
    it('answers an empty list with an empty list', async () => {
      const { store } = await ctx.open()
      expect(await store.getMany('obj', [])).toEqual([])
      await putSamples(store)
      expect(await store.getMany('sys', [])).toEqual([])
    })

    it('answers in the order of the keys asked, not the order of the store', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const order = [9, 0, 12, 3, 6]
      const values = await store.getMany(
        'obj',
        order.map((i) => BINARY_KEYS[i] as Uint8Array),
      )
      expect(shownAll(values)).toEqual(order.map((i) => show(valueAt(i))))
      const textOrder = [17, 4, 0, 14]
      const texts = await store.getMany(
        'sys',
        textOrder.map((i) => TEXT_KEYS[i] as string),
      )
      expect(shownAll(texts)).toEqual(textOrder.map((i) => show(valueAt(i))))
    })

    it('puts undefined where a key is missing, and repeats a key asked twice', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      const values = await store.getMany('obj', [
        bytes(0x02),
        bytes(0xff),
        bytes(0x00, 0x00, 0x00),
        bytes(0xff),
        bytes(0x00),
      ])
      expect(shownAll(values)).toEqual([
        undefined,
        show(valueAt(9)),
        undefined,
        show(valueAt(9)),
        show(valueAt(0)),
      ])
      expect(shownAll(await store.getMany('sys', ['nope', 'a\u0000', 'a\u0001']))).toEqual([
        undefined,
        show(valueAt(4)),
        undefined,
      ])
    })

    it('tells an empty value from a missing one', async () => {
      const { store } = await ctx.open()
      await store.batch([{ type: 'put', space: 'ref', key: 'e', value: new Uint8Array(0) }], {
        sync: false,
      })
      expect(shownAll(await store.getMany('ref', ['e', 'f']))).toEqual(['', undefined])
    })

    it('agrees with get for every key', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      await store.batch([{ type: 'del', space: 'sys', key: 'b' }], { sync: false })
      const keys = [...TEXT_KEYS, 'zz', 'b!']
      const one = await Promise.all(keys.map((key) => store.get('sys', key)))
      expect(shownAll(await store.getMany('sys', keys))).toEqual(shownAll(one))
    })
  })
}
