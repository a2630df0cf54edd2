import { describe, expect, it } from 'vitest'
import { collect } from '../meta-store-conformance/async-results'
import type { BlobSuiteContext } from './fixture'
import { ODD_KEYS, padded, putMany } from './samples'

/** Slack for a service whose clock is not this process's (and S3's whole seconds). */
const CLOCK_SLACK_MS = 5 * 60 * 1000

const utf8Order = (keys: readonly string[]): string[] =>
  [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))

/** `list`: keys under a prefix, in bytewise order, with size and time. */
export function listTests(ctx: BlobSuiteContext): void {
  describe('list', () => {
    it('lists keys in bytewise UTF-8 order, not UTF-16 order', async () => {
      const { store } = await ctx.open()
      const shuffled = [...ODD_KEYS].reverse()
      await Promise.all(shuffled.map((key) => store.put(key, Uint8Array.of(1))))
      const listed = (await collect(store.list('odd/'))).map((info) => info.key)
      expect(listed).toEqual(utf8Order(ODD_KEYS))
      // The sample would not catch a store sorting by code units otherwise.
      expect(listed).not.toEqual([...ODD_KEYS].sort())
    })

    it('lists only the keys that start with the prefix, which need not end at a slash', async () => {
      const { store } = await ctx.open()
      const keys = ['a/1', 'a/2', 'a/b/3', 'a0', 'ab/4', 'b/a/5', 'a']
      await Promise.all(keys.map((key) => store.put(key, Uint8Array.of(1))))
      const under = async (prefix: string): Promise<string[]> =>
        (await collect(store.list(prefix))).map((info) => info.key)
      expect(await under('a/')).toEqual(['a/1', 'a/2', 'a/b/3'])
      expect(await under('a/b')).toEqual(['a/b/3'])
      expect(await under('ab')).toEqual(['ab/4'])
      expect(await under('a')).toEqual(['a', 'a/1', 'a/2', 'a/b/3', 'a0', 'ab/4'])
      expect(await under('c')).toEqual([])
      expect(await under('a/1/')).toEqual([])
    })

    it('lists everything under an empty prefix', async () => {
      const { store } = await ctx.open()
      expect(await collect(store.list(''))).toEqual([])
      const keys = ['x', 'chunks/00/aa', 'y/z', 'odd/é']
      await Promise.all(keys.map((key) => store.put(key, Uint8Array.of(1))))
      expect((await collect(store.list(''))).map((info) => info.key)).toEqual(utf8Order(keys))
    })

    it('lists more than 1,000 keys, every one once and in order', async () => {
      const { store } = await ctx.open()
      const keys = Array.from({ length: 1_005 }, (_, i) => `p/${padded(i)}`)
      await putMany(store, [...keys, 'q/after', 'o/before'], () => Uint8Array.of(1))
      const listed = (await collect(store.list('p/'))).map((info) => info.key)
      expect(listed.length).toBe(keys.length)
      expect(listed).toEqual(keys)
    })

    it('reports each object’s size and when it was written, in ms since the epoch', async () => {
      const { store } = await ctx.open()
      const before = Date.now()
      await store.put('s/empty', new Uint8Array(0))
      await store.put('s/large', new Uint8Array(300_000))
      await store.put('s/large', new Uint8Array(300_001))
      const after = Date.now()
      const listed = await collect(store.list('s/'))
      expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
        { key: 's/empty', size: 0 },
        { key: 's/large', size: 300_001 },
      ])
      for (const { modified } of listed) {
        expect(Number.isInteger(modified)).toBe(true)
        expect(modified).toBeGreaterThanOrEqual(before - CLOCK_SLACK_MS)
        expect(modified).toBeLessThanOrEqual(after + CLOCK_SLACK_MS)
      }
    })
  })
}
