import type { RangeOptions } from '../../meta/meta-store'

const encoder = new TextEncoder()

/** Bytewise order, the order every space keeps (strings by their UTF-8 bytes). */
export function compareKeys(a: Uint8Array | string, b: Uint8Array | string): number {
  const left = typeof a === 'string' ? encoder.encode(a) : a
  const right = typeof b === 'string' ? encoder.encode(b) : b
  return Buffer.compare(left, right)
}

/** A key as text for assertions: hex for bytes, JSON for strings (shows NUL and the like). */
export const show = (key: Uint8Array | string): string =>
  typeof key === 'string' ? JSON.stringify(key) : Buffer.from(key).toString('hex')

/** What a range must yield from `sorted` keys, in the order it must yield them. */
export function expectedRange<K extends Uint8Array | string>(
  sorted: readonly K[],
  range: RangeOptions<K>,
): K[] {
  const inside = sorted.filter(
    (key) =>
      (range.gt === undefined || compareKeys(key, range.gt) > 0) &&
      (range.gte === undefined || compareKeys(key, range.gte) >= 0) &&
      (range.lt === undefined || compareKeys(key, range.lt) < 0) &&
      (range.lte === undefined || compareKeys(key, range.lte) <= 0),
  )
  if (range.reverse === true) inside.reverse()
  return range.limit === undefined ? inside : inside.slice(0, range.limit)
}
