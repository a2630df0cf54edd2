import { expect, it } from 'vitest'
import type { KeyOf, MetaStore, RangeOptions } from '../../meta/meta-store'
import { expectedRange, show } from './key-order'
import type { MetaSuiteContext } from './fixture'
import {
  BINARY_KEYS,
  BINARY_PROBES,
  TEXT_KEYS,
  TEXT_PROBES,
  putSamples,
  valueAt,
} from './sample-keys'

type Lower = 'gt' | 'gte' | undefined
type Upper = 'lt' | 'lte' | undefined

/** Every combination of a lower and an upper bound, none included. */
const BOUND_KINDS: readonly (readonly [Lower, Upper])[] = [undefined, 'gt', 'gte'].flatMap(
  (lower) => [undefined, 'lt', 'lte'].map((upper) => [lower as Lower, upper as Upper] as const),
)

const LIMITS = [undefined, 0, 1, 2, 1000] as const

/**
 * The ranges of one bound kind: bounds on stored keys and between them (so ranges come
 * inverted and empty too), forward and reverse, with each limit.
 */
function rangesOf<K>(lower: Lower, upper: Upper, keys: readonly K[], probes: readonly K[]) {
  const bounds = [keys[0], keys[3], keys[6], keys.at(-1), ...probes] as K[]
  const ranges: RangeOptions<K>[] = []
  for (const low of lower === undefined ? [undefined] : bounds)
    for (const high of upper === undefined ? [undefined] : bounds)
      for (const limit of LIMITS)
        for (const reverse of [false, true]) {
          const range: RangeOptions<K> = { reverse }
          if (lower !== undefined) range[lower] = low as K
          if (upper !== undefined) range[upper] = high as K
          if (limit !== undefined) range.limit = limit
          ranges.push(range)
        }
  return ranges
}

const describeRange = (range: RangeOptions<Uint8Array | string>): string =>
  Object.entries(range)
    .map(
      ([name, value]) =>
        `${name}: ${typeof value === 'object' || typeof value === 'string' ? show(value) : String(value)}`,
    )
    .join(', ')

/** Reads a range as `key=value` lines (`key` alone when the reader has no values). */
export type RangeReader = <S extends 'obj' | 'sys'>(
  store: MetaStore,
  space: S,
  range: RangeOptions<KeyOf<S>>,
) => Promise<string[]>

/** Shows one entry the way {@link RangeReader}s do. */
export const line = (key: Uint8Array | string, value?: Uint8Array): string =>
  value === undefined ? show(key) : `${show(key)}=${show(value)}`

/**
 * Registers one test per bound combination (none, gt, gte × none, lt, lte), each checking
 * every bound value, direction and limit in a binary and a text space against a model.
 */
export function rangeTests(ctx: MetaSuiteContext, read: RangeReader, withValues: boolean): void {
  const expected = <K extends Uint8Array | string>(keys: readonly K[], range: RangeOptions<K>) =>
    expectedRange(keys, range).map((key) =>
      line(key, withValues ? valueAt(keys.indexOf(key)) : undefined),
    )
  for (const [lower, upper] of BOUND_KINDS) {
    const name = [lower ?? 'no lower bound', upper ?? 'no upper bound'].join(' and ')
    it(`honours ${name}, forward and reverse, with and without limit`, async () => {
      const { store } = await ctx.open()
      await putSamples(store)
      for (const range of rangesOf(lower, upper, BINARY_KEYS, BINARY_PROBES))
        expect(await read(store, 'obj', range), describeRange(range)).toEqual(
          expected(BINARY_KEYS, range),
        )
      for (const range of rangesOf(lower, upper, TEXT_KEYS, TEXT_PROBES))
        expect(await read(store, 'sys', range), describeRange(range)).toEqual(
          expected(TEXT_KEYS, range),
        )
    })
  }
}
