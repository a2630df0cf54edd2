import { describe, expect, it } from 'vitest'
import type { MetaOp, MetaStore } from '../../meta/meta-store'
import type { MetaSuiteContext } from './fixture'

/** More keys than an implementation reads ahead in one go (classic-level: 1,024 per step). */
const COUNT = 3000
const keyOf = (i: number): string => `k${String(i).padStart(5, '0')}`
const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value)

async function fill(store: MetaStore): Promise<string[]> {
  const keys = Array.from({ length: COUNT }, (_, i) => keyOf(i))
  await store.batch(
    keys.map((key) => ({ type: 'put', space: 'log', key, value: utf8('old') })),
    { sync: false },
  )
  return keys
}

/** Writes, once the first entry was read, that touch keys the iteration has not reached yet. */
const WRITES: readonly MetaOp[] = [
  { type: 'put', space: 'log', key: `${keyOf(2000)}+`, value: utf8('new') },
  { type: 'put', space: 'log', key: keyOf(2500), value: utf8('new') },
  { type: 'del', space: 'log', key: keyOf(2999) },
  { type: 'del', space: 'log', key: keyOf(1500) },
]
const TOUCHED = new Set(WRITES.map((op) => op.key as string))

/** Reads every entry of `log`, committing {@link WRITES} after the first one. */
async function readWhileWriting(
  store: MetaStore,
  read: 'iterate' | 'keys',
): Promise<[string, string | undefined][]> {
  const seen: [string, string | undefined][] = []
  const entries = read === 'iterate' ? store.iterate('log') : mapKeys(store.keys('log'))
  for await (const [key, value] of entries) {
    seen.push([key, value === undefined ? undefined : new TextDecoder().decode(value)])
    if (seen.length === 1) await store.batch(WRITES, { sync: false })
  }
  return seen
}

async function* mapKeys(keys: AsyncIterable<string>): AsyncIterable<[string, undefined]> {
  for await (const key of keys) yield [key, undefined]
}

/** Iterations that overlap batches. */
export function iterateWhileWritingTests(ctx: MetaSuiteContext): void {
  describe('iteration while writing', () => {
    for (const read of ['iterate', 'keys'] as const) {
      it(`${read} yields every key the writes leave alone, once and in order`, async () => {
        const { store } = await ctx.open()
        const keys = await fill(store)
        const seen = (await readWhileWriting(store, read)).map(([key]) => key)
        expect(seen.filter((key) => !TOUCHED.has(key))).toEqual(
          keys.filter((key) => !TOUCHED.has(key)),
        )
        expect([...seen].sort()).toEqual(seen)
        expect(new Set(seen).size).toBe(seen.length)
      })

      it.runIf(ctx.supports.snapshots)(
        `${read} reads a snapshot: batches committed meanwhile are not seen`,
        async () => {
          const { store } = await ctx.open()
          const keys = await fill(store)
          const seen = await readWhileWriting(store, read)
          const old = read === 'iterate' ? 'old' : undefined
          expect(seen).toEqual(keys.map((key) => [key, old]))
          // Once the iteration is over, the writes are there.
          expect(await store.get('log', keyOf(1500))).toBeUndefined()
          expect(new TextDecoder().decode(await store.get('log', keyOf(2500)))).toBe('new')
        },
      )
    }
  })
}
