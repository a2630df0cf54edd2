import type { KeyOf, RangeOptions, Space } from '@svcdb/engine'
import { keyBytes } from './kv-keys'

/** A parameterised query. */
export interface SqlQuery {
  readonly text: string
  readonly values: unknown[]
}

const BOUNDS = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const

/**
 * The `SELECT` of a range of `space` in `table`: every bound given applies, rows come in key
 * order (descending with `reverse`), `limit` caps them.
 */
export function rangeQuery<S extends Space>(
  table: string,
  space: S,
  range: RangeOptions<KeyOf<S>>,
  withValues: boolean,
): SqlQuery {
  const values: unknown[] = [space]
  const where = ['space = $1']
  for (const [bound, operator] of BOUNDS) {
    const key = range[bound]
    if (key === undefined) continue
    values.push(keyBytes<S>(key))
    where.push(`key ${operator} $${values.length}`)
  }
  let text =
    `SELECT key${withValues ? ', value' : ''} FROM ${table} WHERE ${where.join(' AND ')} ` +
    `ORDER BY key ${range.reverse === true ? 'DESC' : 'ASC'}`
  if (range.limit !== undefined && range.limit >= 0) {
    values.push(range.limit)
    text += ` LIMIT $${values.length}`
  }
  return { text, values }
}
