/**
 * The query language's vocabulary (DESIGN §3.8): comparison operators and the shape of a
 * condition. Its one definition, since the engine executes it; runtime-neutral (no Node
 * built-ins), so the wire contract (`@svcdb/contract`) and browsers import it from
 * `@svcdb/engine/query-language` without loading the engine.
 */

/** Comparison operators of a query condition. */
export const QUERY_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'prefix',
  'contains',
  'exists',
] as const

/** A comparison operator. */
export type QueryOperator = (typeof QUERY_OPERATORS)[number]

/** One comparison: a field (JSON pointer or virtual field), an operator and a value. */
export interface Comparison {
  field: string
  op: QueryOperator
  /** The operand; an array for `in`; for `exists`, `true` (default) or `false`. */
  value?: unknown
}

/** A condition: a comparison, or `and`/`or` of conditions, or `not` of one. */
export type Condition =
  Comparison | { and: Condition[] } | { or: Condition[] } | { not: Condition | [Condition] }
