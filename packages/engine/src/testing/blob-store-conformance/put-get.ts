import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { collect } from '../meta-store-conformance/async-results'
import type { BlobSuiteContext } from './fixture'
import { ODD_KEYS, hex, sameBytes } from './samples'

/** `put` and `get`: whole objects, byte for byte. */
export function putGetTests(ctx: BlobSuiteContext): void {
  describe('put and get', () => {
    it('returns exactly the bytes put: an empty object, one byte, 1 MiB', async () => {
      const { store } = await ctx.open()
      const objects = [
        ['empty', new Uint8Array(0)],
        ['one', Uint8Array.of(0xa5)],
        ['mib', pseudoRandomBytes(1024 * 1024, 3)],
      ] as const
      await Promise.all(objects.map(([key, bytes]) => store.put(key, bytes)))
      for (const [key, bytes] of objects) {
        const got = await store.get(key)
        expect(got?.length, key).toBe(bytes.length)
        expect(sameBytes(got, bytes), key).toBe(true)
      }
    })

    it('returns undefined for a key never put, including a prefix or an extension of one', async () => {
      const { store } = await ctx.open()
      expect(await store.get('missing')).toBeUndefined()
      await store.put('dir/name', Uint8Array.of(1))
      for (const key of ['dir/nam', 'dir/name2', 'dir/', 'dir', 'DIR/name'])
        expect(await store.get(key), key).toBeUndefined()
    })

    it('keeps objects under keys an HTTP client must encode apart', async () => {
      const { store } = await ctx.open()
      await Promise.all(ODD_KEYS.map((key, i) => store.put(key, Uint8Array.of(i))))
      for (const [i, key] of ODD_KEYS.entries())
        expect(hex(await store.get(key)), key).toBe(hex(Uint8Array.of(i)))
    })

    it('keeps its own copy: changing the bytes put or got changes nothing stored', async () => {
      const { store } = await ctx.open()
      const bytes = pseudoRandomBytes(100, 4)
      const original = bytes.slice()
      await store.put('k', bytes)
      bytes.fill(0)
      const got = await store.get('k')
      expect(sameBytes(got, original)).toBe(true)
      got?.fill(1)
      expect(sameBytes(await store.get('k'), original)).toBe(true)
    })

    it('accepts the same bytes again under a key, at once or later, and keeps one object', async () => {
      const { store } = await ctx.open()
      const bytes = pseudoRandomBytes(5000, 5)
      await store.put('same', bytes)
      await Promise.all([store.put('same', bytes), store.put('same', bytes)])
      expect(sameBytes(await store.get('same'), bytes)).toBe(true)
      const listed = await collect(store.list(''))
      expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([{ key: 'same', size: 5000 }])
    })
  })
}
