import { describe, expect, it } from 'vitest'
import type { MetaSuiteContext } from './fixture'
import { show } from './key-order'
import { BINARY_KEYS, TEXT_KEYS, bytes, putSamples, valueAt } from './sample-keys'

const shown = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : show(value)

/** `get`: one key's value, or undefined. */
export function getTests(ctx: MetaSuiteContext): void {
  describe('get', () => {
    it('returns the value stored under each key, binary and string', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      for (const [i, key] of BINARY_KEYS.entries())
        expect(shown(await store.get('obj', key)), show(key)).toBe(show(valueAt(i)))
      for (const [i, key] of TEXT_KEYS.entries())
        expect(shown(await store.get('sys', key)), show(key)).toBe(show(valueAt(i)))
    })

    it('returns undefined for a key never stored, including prefixes and extensions of stored keys', async () => {
      const { store } = await ctx.open()
      expect(await store.get('obj', bytes(1))).toBeUndefined()
      await putSamples(store)
      for (const key of [bytes(0x02), bytes(0x7f, 0xff), bytes(0xff, 0xff, 0xff, 0xff)])
        expect(await store.get('obj', key), show(key)).toBeUndefined()
      for (const key of ['a\u0000\u0000', 'aa', '😀!', 'A\u0000'])
        expect(await store.get('sys', key), show(key)).toBeUndefined()
    })

    it('tells an empty value from a missing one', async () => {
      const { store } = await ctx.open()
      await store.batch(
        [
          { type: 'put', space: 'meta', key: 'empty', value: new Uint8Array(0) },
          { type: 'put', space: 'idx', key: bytes(9), value: new Uint8Array(0) },
        ],
        { sync: false },
      )
      expect(shown(await store.get('meta', 'empty'))).toBe('')
      expect(shown(await store.get('idx', bytes(9)))).toBe('')
    })

    it('uses only the bytes a view covers, for keys and values alike', async () => {
      const { store } = await ctx.open()
      const backing = bytes(0xee, 0x01, 0x02, 0x03, 0xee, 0x0a, 0x0b, 0xee)
      const key = backing.subarray(1, 4)
      await store.batch([{ type: 'put', space: 'obj', key, value: backing.subarray(5, 7) }], {
        sync: false,
      })
      expect(shown(await store.get('obj', bytes(1, 2, 3)))).toBe('0a0b')
      expect(shown(await store.get('obj', Buffer.from([1, 2, 3])))).toBe('0a0b')
      expect(shown(await store.get('obj', key))).toBe('0a0b')
    })

    it('round-trips a large value byte for byte', async () => {
      const { store } = await ctx.open()
      const value = Uint8Array.from({ length: 300 * 1024 }, (_, i) => (i * 31 + (i >> 8)) & 0xff)
      await store.batch([{ type: 'put', space: 'chunk', key: bytes(1), value }], { sync: true })
      const got = await store.get('chunk', bytes(1))
      expect(got?.length).toBe(value.length)
      expect(Buffer.compare(got as Uint8Array, value)).toBe(0)
    })

    it('returns the latest value after an overwrite and undefined after a delete', async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      await store.batch([{ type: 'put', space: 'sys', key: 'é', value: bytes(7) }], { sync: false })
      expect(shown(await store.get('sys', 'é'))).toBe('07')
      await store.batch([{ type: 'del', space: 'sys', key: 'é' }], { sync: false })
      expect(await store.get('sys', 'é')).toBeUndefined()
      expect(shown(await store.get('sys', '\u07ff'))).toBe(show(valueAt(12)))
    })
  })
}
