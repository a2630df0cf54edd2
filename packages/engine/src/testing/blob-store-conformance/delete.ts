import { describe, expect, it } from 'vitest'
import { collect } from '../meta-store-conformance/async-results'
import type { BlobSuiteContext } from './fixture'
import { padded, putMany } from './samples'

/** `delete`: objects go, missing keys are ignored, any number in one call. */
export function deleteTests(ctx: BlobSuiteContext): void {
  describe('delete', () => {
    it('deletes the objects named and leaves the others', async () => {
      const { store } = await ctx.open()
      await Promise.all(['a', 'b', 'c'].map((key) => store.put(key, Uint8Array.of(1))))
      await store.delete(['b'])
      expect(await store.get('b')).toBeUndefined()
      expect(await store.get('a')).toBeDefined()
      expect((await collect(store.list(''))).map((info) => info.key)).toEqual(['a', 'c'])
    })

    it('ignores keys that do not exist, alone or among existing ones, and an empty list', async () => {
      const { store } = await ctx.open()
      await store.put('a', Uint8Array.of(1))
      await store.put('c', Uint8Array.of(1))
      await store.delete(['missing'])
      await store.delete([])
      await store.delete(['a', 'missing', 'a'])
      expect(await store.get('a')).toBeUndefined()
      expect((await collect(store.list(''))).map((info) => info.key)).toEqual(['c'])
    })

    it('deletes more than 1,000 objects in one call', async () => {
      const { store } = await ctx.open()
      const keys = Array.from({ length: 1_003 }, (_, i) => `many/${padded(i)}`)
      await putMany(store, [...keys, 'kept'], () => Uint8Array.of(7))
      await store.delete(keys)
      expect((await collect(store.list(''))).map((info) => info.key)).toEqual(['kept'])
      expect(await store.get(keys[1_001] as string)).toBeUndefined()
    })
  })
}
