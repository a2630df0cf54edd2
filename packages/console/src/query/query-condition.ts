import type { QueryBody, QueryComparison, QueryCondition } from '@svcdb/contract'
import type { FieldType } from './index-config'

/** A choice of the operator menu: the API's operator, and for `exists` which way it asks. */
export interface OperatorChoice {
  id: string
  label: string
  op: QueryComparison['op']
}

/** Every operator the form offers, in menu order (`missing` is `exists: false`). */
export const OPERATORS: readonly OperatorChoice[] = [
  { id: 'eq', label: 'equals', op: 'eq' },
  { id: 'neq', label: 'does not equal', op: 'neq' },
  { id: 'gt', label: 'greater than', op: 'gt' },
  { id: 'gte', label: 'at least', op: 'gte' },
  { id: 'lt', label: 'less than', op: 'lt' },
  { id: 'lte', label: 'at most', op: 'lte' },
  { id: 'in', label: 'is one of', op: 'in' },
  { id: 'prefix', label: 'starts with', op: 'prefix' },
  { id: 'contains', label: 'contains', op: 'contains' },
  { id: 'exists', label: 'exists', op: 'exists' },
  { id: 'missing', label: 'is missing', op: 'exists' },
]

/** The operators that make sense for a field of `type` (the server refuses `prefix` on others). */
export function operatorsFor(type: FieldType): OperatorChoice[] {
  const ids =
    type === 'string'
      ? OPERATORS.map((o) => o.id)
      : type === 'boolean'
        ? ['eq', 'neq', 'exists', 'missing']
        : OPERATORS.map((o) => o.id).filter((id) => id !== 'prefix')
  return OPERATORS.filter((o) => ids.includes(o.id))
}

/** True when the operator takes no value from the user. */
export function takesNoValue(operator: string): boolean {
  return operator === 'exists' || operator === 'missing'
}

/** One row of the query form, as typed. */
export interface ConditionRow {
  field: string
  operator: string
  value: string
}

/** A query's `where`, or what is wrong with the form. */
export type BuiltCondition =
  { where: QueryCondition | undefined; problem?: undefined } | { problem: string }

/** `text` read as a value of `type`, or a problem naming the field. */
function operand(text: string, type: FieldType, field: string): unknown {
  const trimmed = text.trim()
  switch (type) {
    case 'string':
      return text
    case 'number': {
      const n = Number(trimmed)
      if (trimmed === '' || !Number.isFinite(n)) throw new Error(`${field} takes a number.`)
      return n
    }
    case 'boolean':
      if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true'
      throw new Error(`${field} takes true or false.`)
    case 'timestamp': {
      // Milliseconds since 1970 as they are; anything else as a date the browser reads.
      const ms = /^-?\d+$/.test(trimmed) ? Number(trimmed) : Date.parse(trimmed)
      if (trimmed === '' || !Number.isFinite(ms))
        throw new Error(`${field} takes a date (2026-01-31, 2026-01-31T12:00:00Z) or milliseconds.`)
      return ms
    }
  }
}

/** One row as a comparison of the API. */
function comparison(row: ConditionRow, type: FieldType): QueryComparison {
  const choice = OPERATORS.find((o) => o.id === row.operator)
  if (choice === undefined) throw new Error(`Choose an operator for ${row.field}.`)
  if (row.operator === 'exists') return { field: row.field, op: 'exists', value: true }
  if (row.operator === 'missing') return { field: row.field, op: 'exists', value: false }
  if (choice.op === 'in') {
    const parts = row.value.split(',').filter((part) => part.trim() !== '')
    if (parts.length === 0)
      throw new Error(`Give ${row.field} one or more values, comma separated.`)
    return {
      field: row.field,
      op: 'in',
      value: parts.map((part) => operand(type === 'string' ? part.trim() : part, type, row.field)),
    }
  }
  return { field: row.field, op: choice.op, value: operand(row.value, type, row.field) }
}

/**
 * The `where` of the rows, all of them (`and`) or any (`or`); no rows, no condition.
 * `typeOf` gives each field's type, which decides how its value is read.
 */
export function buildWhere(
  rows: readonly ConditionRow[],
  match: 'all' | 'any',
  typeOf: (field: string) => FieldType | undefined,
): BuiltCondition {
  try {
    const items = rows.map((row) => {
      const type = typeOf(row.field)
      if (type === undefined) throw new Error(`Choose a field for every condition.`)
      return comparison(row, type)
    })
    if (items.length === 0) return { where: undefined }
    if (items.length === 1) return { where: items[0] }
    return { where: match === 'all' ? { and: items } : { or: items } }
  } catch (err) {
    return { problem: (err as Error).message }
  }
}

/** What the query form asks for: a query of the directory, less its path and cursor. */
export type QueryRequest = Pick<QueryBody, 'where' | 'order_by'> & { limit: number }
