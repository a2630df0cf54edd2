import { describe, expect, it } from 'vitest'
import type { MetaOp, MetaStore } from '../../meta/meta-store'
import { collect, outcome } from './async-results'
import type { MetaSuiteContext } from './fixture'
import { show } from './key-order'
import { bytes } from './sample-keys'

const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : new TextDecoder().decode(value)
const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value)

/** A put whose value is missing: every implementation must refuse it. */
const invalidPut = {
  type: 'put',
  space: 'meta',
  key: 'invalid',
  value: undefined as unknown as Uint8Array,
} as const satisfies MetaOp

async function seed(store: MetaStore): Promise<void> {
  await store.batch(
    [
      { type: 'put', space: 'meta', key: 'kept', value: utf8('before') },
      { type: 'put', space: 'ref', key: 'doomed', value: utf8('alive') },
      { type: 'put', space: 'obj', key: bytes(1), value: utf8('one') },
    ],
    { sync: true },
  )
}

/** `batch`: atomic writes over any spaces. */
export function batchTests(ctx: MetaSuiteContext): void {
  describe('batch', () => {
    it('applies puts and deletes over several spaces together', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.batch(
        [
          { type: 'put', space: 'meta', key: 'kept', value: utf8('after') },
          { type: 'del', space: 'ref', key: 'doomed' },
          { type: 'put', space: 'chunkidx', key: bytes(2), value: utf8('two') },
          { type: 'del', space: 'obj', key: bytes(1) },
        ],
        { sync: true },
      )
      expect(text(await store.get('meta', 'kept'))).toBe('after')
      expect(await store.get('ref', 'doomed')).toBeUndefined()
      expect(text(await store.get('chunkidx', bytes(2)))).toBe('two')
      expect(await store.get('obj', bytes(1))).toBeUndefined()
    })

    it('lets the last op on a key win within one batch', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.batch(
        [
          { type: 'put', space: 'meta', key: 'twice', value: utf8('first') },
          { type: 'put', space: 'meta', key: 'twice', value: utf8('second') },
          { type: 'put', space: 'meta', key: 'put-then-del', value: utf8('x') },
          { type: 'del', space: 'meta', key: 'put-then-del' },
          { type: 'del', space: 'ref', key: 'doomed' },
          { type: 'put', space: 'ref', key: 'doomed', value: utf8('again') },
          { type: 'put', space: 'obj', key: bytes(1), value: utf8('new') },
          { type: 'del', space: 'obj', key: bytes(1) },
        ],
        { sync: false },
      )
      expect(text(await store.get('meta', 'twice'))).toBe('second')
      expect(await store.get('meta', 'put-then-del')).toBeUndefined()
      expect(text(await store.get('ref', 'doomed'))).toBe('again')
      expect(await store.get('obj', bytes(1))).toBeUndefined()
      expect(await collect(store.keys('meta'))).toEqual(['kept', 'twice'])
    })

    it('applies nothing of a batch that fails, wherever the bad op sits', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const good: MetaOp[] = [
        { type: 'put', space: 'meta', key: 'kept', value: utf8('changed') },
        { type: 'del', space: 'ref', key: 'doomed' },
        { type: 'put', space: 'obj', key: bytes(2), value: utf8('two') },
      ]
      for (const at of [0, 1, 3]) {
        const ops = [...good]
        ops.splice(at, 0, invalidPut)
        expect(await outcome(store.batch(ops, { sync: true }))).not.toBe('resolved')
        expect(text(await store.get('meta', 'kept'))).toBe('before')
        expect(text(await store.get('ref', 'doomed'))).toBe('alive')
        expect(await store.get('obj', bytes(2))).toBeUndefined()
        expect(await store.get('meta', 'invalid')).toBeUndefined()
      }
      // The store still writes after a refused batch.
      await store.batch(good, { sync: true })
      expect(text(await store.get('meta', 'kept'))).toBe('changed')
    })

    it('does not fail a valid batch issued together with a failing one', async () => {
      const { store } = await ctx.open()
      // All three issued in one turn, so a store that groups writes groups them; each
      // outcome is taken at once (a refusal is not left unhandled while the others run).
      const [first, bad, innocent] = await Promise.all([
        outcome(
          store.batch([{ type: 'put', space: 'meta', key: 'a', value: utf8('a') }], { sync: true }),
        ),
        outcome(store.batch([invalidPut], { sync: true })),
        outcome(
          store.batch([{ type: 'put', space: 'meta', key: 'b', value: utf8('b') }], { sync: true }),
        ),
      ])
      expect(first).toBe('resolved')
      expect(bad).not.toBe('resolved')
      expect(innocent).toBe('resolved')
      expect(text(await store.get('meta', 'a'))).toBe('a')
      expect(text(await store.get('meta', 'b'))).toBe('b')
    })

    it('refuses an op naming no space, writing nothing of its batch', async () => {
      const { store } = await ctx.open()
      const stray = { type: 'put', space: 'nowhere', key: 'x', value: utf8('x') }
      const ops = [{ type: 'put', space: 'meta', key: 'with-stray', value: utf8('x') }, stray]
      expect(await outcome(store.batch(ops as MetaOp[], { sync: true }))).not.toBe('resolved')
      expect(await store.get('meta', 'with-stray')).toBeUndefined()
    })

    it('resolves an empty batch and changes nothing', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.batch([], { sync: true })
      await store.batch([], { sync: false })
      expect(await collect(store.keys('meta'))).toEqual(['kept'])
    })

    it('deletes a key that was never stored without complaint', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.batch([{ type: 'del', space: 'obj', key: bytes(0xff, 0xff) }], { sync: true })
      expect((await collect(store.keys('obj'))).map(show)).toEqual(['01'])
    })

    it('applies every one of many concurrent batches', async () => {
      const { store } = await ctx.open()
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.batch(
            [
              { type: 'put', space: 'log', key: `k${String(i).padStart(2, '0')}`, value: bytes(i) },
              { type: 'put', space: 'obj', key: bytes(i), value: bytes(i) },
            ],
            { sync: i % 3 === 0 },
          ),
        ),
      )
      const keys = await collect(store.keys('log'))
      expect(keys).toEqual(Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`))
      expect(await collect(store.keys('obj'))).toHaveLength(40)
    })

    it('keeps what a synced batch wrote across a reopen', async () => {
      const f = await ctx.open()
      await seed(f.store)
      await f.store.batch(
        [
          { type: 'put', space: 'headlog', key: 'h', value: utf8('head') },
          { type: 'del', space: 'ref', key: 'doomed' },
        ],
        { sync: true },
      )
      const { store } = await ctx.reopen(f)
      expect(text(await store.get('headlog', 'h'))).toBe('head')
      expect(text(await store.get('meta', 'kept'))).toBe('before')
      expect(await store.get('ref', 'doomed')).toBeUndefined()
    })
  })
}
