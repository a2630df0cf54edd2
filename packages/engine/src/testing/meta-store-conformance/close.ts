import { describe, expect, it } from 'vitest'
import type { MetaOp } from '../../meta/meta-store'
import { collect, outcome } from './async-results'
import type { MetaSuiteContext } from './fixture'
import { bytes } from './sample-keys'

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value)
const ENTRIES = 2000
const entryKey = (i: number): string => `e${String(i).padStart(5, '0')}`

/** `close`: the end of a store's life, and what survives it. */
export function closeTests(ctx: MetaSuiteContext): void {
  describe('close', () => {
    it('fails reads and writes with CLOSED once closed', async () => {
      const { store } = await ctx.open()
      await store.batch([{ type: 'put', space: 'meta', key: 'k', value: bytes(1) }], {
        sync: true,
      })
      await store.close()
      expect(await outcome(store.get('meta', 'k'))).toBe('CLOSED')
      expect(await outcome(store.getMany('meta', ['k']))).toBe('CLOSED')
      const put: MetaOp = { type: 'put', space: 'meta', key: 'k', value: bytes(2) }
      expect(await outcome(store.batch([put], { sync: true }))).toBe('CLOSED')
      expect(await outcome(store.batch([put], { sync: false }))).toBe('CLOSED')
    })

    it('fails iterate and keys with CLOSED once closed', async () => {
      const { store } = await ctx.open()
      await store.close()
      expect(await outcome(collect(store.iterate('meta')))).toBe('CLOSED')
      expect(await outcome(collect(store.keys('obj')))).toBe('CLOSED')
    })

    it('keeps every batch acknowledged before a clean close, synced or not', async () => {
      const f = await ctx.open()
      await f.store.batch([{ type: 'put', space: 'ref', key: 'synced', value: utf8('s') }], {
        sync: true,
      })
      await f.store.batch([{ type: 'put', space: 'ref', key: 'unsynced', value: utf8('u') }], {
        sync: false,
      })
      await f.store.close()
      const { store } = await ctx.reopen(f)
      const values = await store.getMany('ref', ['synced', 'unsynced'])
      expect(values.map((value) => value && new TextDecoder().decode(value))).toEqual(['s', 'u'])
    })

    it('lands a batch issued just before close whole or not at all', async () => {
      const f = await ctx.open()
      const ops: MetaOp[] = Array.from({ length: 50 }, (_, i) => ({
        type: 'put',
        space: 'obj',
        key: bytes(i),
        value: bytes(i, i),
      }))
      const written = outcome(f.store.batch(ops, { sync: true }))
      await f.store.close()
      const result = await written
      const { store } = await ctx.reopen(f)
      const found = await store.getMany(
        'obj',
        ops.map((op) => op.key as Uint8Array),
      )
      const present = found.filter((value) => value !== undefined).length
      expect(present).toBe(result === 'resolved' ? ops.length : 0)
    })

    it('never ends an iteration early without an error when the store closes under it', async () => {
      const { store } = await ctx.open()
      await store.batch(
        Array.from({ length: ENTRIES }, (_, i) => ({
          type: 'put' as const,
          space: 'log' as const,
          key: entryKey(i),
          value: bytes(1),
        })),
        { sync: false },
      )
      const iterator = store.iterate('log')[Symbol.asyncIterator]()
      expect((await iterator.next()).done).toBe(false)
      await store.close()
      let rest = 0
      const ended = await outcome(
        (async () => {
          while (!(await iterator.next()).done) rest++
        })(),
      )
      // Failing is fine; ending as if the space held fewer keys is not.
      if (ended === 'resolved') expect(rest).toBe(ENTRIES - 1)
    })
  })
}
