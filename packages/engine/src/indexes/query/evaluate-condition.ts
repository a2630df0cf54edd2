import type { IndexedDocument } from '../index-documents'
import { asFieldValue, compareValues, readField } from '../index-values'
import type { Compiled, CompiledComparison } from './compile-condition'

/**
 * Whether a document satisfies a condition. A comparison holds only for a value of the
 * compared type: a missing field, or one of another type, satisfies no comparison but
 * `exists: false` (and `not` of one). `contains` holds for a string containing the operand,
 * or an array holding it.
 */
export function evaluate(compiled: Compiled | undefined, document: IndexedDocument): boolean {
  if (compiled === undefined) return true
  switch (compiled.kind) {
    case 'and':
      return compiled.items.every((item) => evaluate(item, document))
    case 'or':
      return compiled.items.some((item) => evaluate(item, document))
    case 'not':
      return !evaluate(compiled.item, document)
    case 'cmp':
      return compare(compiled, readField(compiled.field, document.json, document.facts))
  }
}

function compare(cmp: CompiledComparison, raw: unknown): boolean {
  if (cmp.op === 'exists') return (raw !== undefined) === cmp.exists
  const type = cmp.type as NonNullable<CompiledComparison['type']>
  if (cmp.op === 'contains') {
    if (Array.isArray(raw)) return raw.some((item) => asFieldValue(item, type) === cmp.value)
    return typeof raw === 'string' && type === 'string' && raw.includes(cmp.value as string)
  }
  const value = asFieldValue(raw, type)
  if (value === undefined) return false
  switch (cmp.op) {
    case 'eq':
      return value === cmp.value
    case 'neq':
      return value !== cmp.value
    case 'gt':
      return compareValues(value, cmp.value as never) > 0
    case 'gte':
      return compareValues(value, cmp.value as never) >= 0
    case 'lt':
      return compareValues(value, cmp.value as never) < 0
    case 'lte':
      return compareValues(value, cmp.value as never) <= 0
    case 'in':
      return (cmp.values as unknown[]).includes(value)
    case 'prefix':
      return typeof value === 'string' && value.startsWith(cmp.value as string)
  }
}
