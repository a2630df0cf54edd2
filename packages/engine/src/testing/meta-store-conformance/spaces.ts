import { describe, expect, it } from 'vitest'
import { BINARY_SPACES, TEXT_SPACES } from '../../meta/meta-store'
import type { MetaOp, MetaStore, Space } from '../../meta/meta-store'
import { collect } from './async-results'
import type { MetaSuiteContext } from './fixture'
import { show } from './key-order'
import { bytes } from './sample-keys'

const SPACES: readonly Space[] = [...BINARY_SPACES, ...TEXT_SPACES]
const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value)

/** Every space's keys and values, as text. */
async function contents(store: MetaStore): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const space of SPACES) {
    const entries = await collect(store.iterate(space))
    out[space] = entries.map(([key, value]) => `${show(key)}=${new TextDecoder().decode(value)}`)
  }
  return out
}

/**
 * Keys a store that joined space name and key naively would mix up: `ref` + `info…` reads
 * like `refinfo…`, `chunk` + `idx…` like `chunkidx…`, `head` + `log` like `headlog`; and the
 * extremes 0x00 / 0xff, which a prefix range must still keep inside its space.
 */
const TRICKY: readonly MetaOp[] = [
  { type: 'put', space: 'ref', key: 'info', value: utf8('ref') },
  { type: 'put', space: 'ref', key: 'info!x', value: utf8('ref') },
  { type: 'put', space: 'ref', key: '\u{10ffff}', value: utf8('ref') },
  { type: 'put', space: 'refinfo', key: '\u0000', value: utf8('refinfo') },
  { type: 'put', space: 'refinfo', key: 'x', value: utf8('refinfo') },
  { type: 'put', space: 'log', key: '!', value: utf8('log') },
  { type: 'put', space: 'headlog', key: 'x', value: utf8('headlog') },
  { type: 'put', space: 'chunk', key: utf8('idx'), value: utf8('chunk') },
  { type: 'put', space: 'chunk', key: bytes(0xff, 0xff, 0xff), value: utf8('chunk') },
  { type: 'put', space: 'chunkidx', key: bytes(0x00), value: utf8('chunkidx') },
  { type: 'put', space: 'chunkidx', key: bytes(0x21), value: utf8('chunkidx') },
]

/** Key spaces: each one a separate ordered map. */
export function spacesTests(ctx: MetaSuiteContext): void {
  describe('spaces', () => {
    it('keeps the same key in every space apart, with its own value', async () => {
      const { store } = await ctx.open()
      await store.batch(
        SPACES.map((space): MetaOp =>
          (BINARY_SPACES as readonly string[]).includes(space)
            ? { type: 'put', space: space as 'obj', key: utf8('k'), value: utf8(space) }
            : { type: 'put', space: space as 'sys', key: 'k', value: utf8(space) },
        ),
        { sync: false },
      )
      const all = await contents(store)
      for (const space of SPACES) {
        const key = (BINARY_SPACES as readonly string[]).includes(space) ? show(utf8('k')) : '"k"'
        expect(all[space], space).toEqual([`${key}=${space}`])
      }
      await store.batch([{ type: 'del', space: 'ref', key: 'k' }], { sync: false })
      expect(await store.get('ref', 'k')).toBeUndefined()
      expect(new TextDecoder().decode(await store.get('refinfo', 'k'))).toBe('refinfo')
      expect(new TextDecoder().decode(await store.get('meta', 'k'))).toBe('meta')
    })

    it('never shows a key of one space in another, also where one name prefixes another', async () => {
      const { store } = await ctx.open()
      await store.batch(TRICKY, { sync: false })
      const all = await contents(store)
      for (const space of SPACES) {
        const expected = TRICKY.filter((op) => op.space === space)
          .map((op) => op.key)
          .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
          .map((key) => `${show(key)}=${space}`)
        expect(all[space], space).toEqual(expected)
      }
    })

    it('keeps unbounded and open-ended ranges inside their space', async () => {
      const { store } = await ctx.open()
      await store.batch(TRICKY, { sync: false })
      expect(await collect(store.keys('ref', { gte: 'info' }))).toEqual([
        'info',
        'info!x',
        '\u{10ffff}',
      ])
      expect(await collect(store.keys('ref', { reverse: true, limit: 1 }))).toEqual(['\u{10ffff}'])
      expect(await collect(store.keys('refinfo', { lt: 'x' }))).toEqual(['\u0000'])
      expect((await collect(store.keys('chunk', { gt: bytes(0xff) }))).map(show)).toEqual([
        'ffffff',
      ])
      expect((await collect(store.keys('chunkidx', { lte: bytes(0x00) }))).map(show)).toEqual([
        '00',
      ])
      expect(await store.get('refinfo', 'info')).toBeUndefined()
      expect(await store.getMany('chunkidx', [utf8('idx'), bytes(0xff, 0xff, 0xff)])).toEqual([
        undefined,
        undefined,
      ])
    })

    it('yields nothing from an empty space between full ones', async () => {
      const { store } = await ctx.open()
      await store.batch(TRICKY, { sync: false })
      for (const space of ['obj', 'idx', 'meta', 'sys'] as const) {
        expect(await collect(store.iterate(space)), space).toEqual([])
        expect(await collect(store.keys(space, { reverse: true })), space).toEqual([])
      }
    })
  })
}
