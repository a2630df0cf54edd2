import type { FieldValue } from '../index-values'
import { encodeValue } from '../index-values'
import type { Compiled } from './compile-condition'

/**
 * Bounds on index keys (`encodedValue \0 relPath`): keys must sort after `low` and before
 * `high`, and start with `prefix`. The encoding makes each comparison a key interval: the
 * keys of value `v` are exactly those after `enc(v)` and before `enc(v) + "\u0001"`.
 */
export interface KeyRange {
  low?: string
  high?: string
  prefix?: string
}

const tighterLow = (a: string | undefined, b: string) => (a === undefined || b > a ? b : a)
const tighterHigh = (a: string | undefined, b: string) => (a === undefined || b < a ? b : a)

/** The smallest string greater than every string starting with `prefix`, if any. */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix
  while (end.length > 0 && end.endsWith('\uffff')) end = end.slice(0, -1)
  if (end === '') return undefined
  return end.slice(0, -1) + String.fromCharCode(end.charCodeAt(end.length - 1) + 1)
}

/** Narrows `range` to the keys of values satisfying one comparison. */
function narrow(range: KeyRange, op: string, value: FieldValue): void {
  const enc = encodeValue(value)
  switch (op) {
    case 'eq':
      range.low = tighterLow(range.low, `${enc}\u0000`)
      range.high = tighterHigh(range.high, `${enc}\u0001`)
      return
    case 'gt':
      range.low = tighterLow(range.low, `${enc}\u0001`)
      return
    case 'gte':
      range.low = tighterLow(range.low, enc)
      return
    case 'lt':
      range.high = tighterHigh(range.high, enc)
      return
    case 'lte':
      range.high = tighterHigh(range.high, `${enc}\u0001`)
      return
    case 'prefix': {
      range.low = tighterLow(range.low, enc)
      const end = prefixEnd(enc)
      if (end !== undefined) range.high = tighterHigh(range.high, end)
      if (range.prefix === undefined || enc.length > range.prefix.length) range.prefix = enc
      return
    }
  }
}

/** The top-level conjuncts of a condition (the condition itself when it is not an `and`). */
export function conjuncts(compiled: Compiled | undefined): Compiled[] {
  if (compiled === undefined) return []
  return compiled.kind === 'and' ? compiled.items.flatMap(conjuncts) : [compiled]
}

/** The key range of `field`'s index that can hold documents satisfying the condition. */
export function keyRangeFor(field: string, compiled: Compiled | undefined): KeyRange {
  const range: KeyRange = {}
  for (const c of conjuncts(compiled))
    if (c.kind === 'cmp' && c.field === field && c.value !== undefined) narrow(range, c.op, c.value)
  return range
}

/** True when `key` is inside the range (both bounds exclusive). */
export function inRange(range: KeyRange, key: string): boolean {
  return (
    (range.low === undefined || key > range.low) &&
    (range.high === undefined || key < range.high) &&
    (range.prefix === undefined || key.startsWith(range.prefix))
  )
}
