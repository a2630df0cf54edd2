import { EngineError } from '../../errors'
import type { IndexConfig, IndexType } from '../index-config'
import { isJsonPointer, VIRTUAL_FIELDS } from '../index-config'
import type { FieldValue } from '../index-values'
import { asFieldValue, virtualType } from '../index-values'
import type { Comparison, Condition } from '../../read/query-types'
import { QUERY_OPERATORS } from '../../read/query-types'

/** A checked comparison, its operand read as the field's type. */
export interface CompiledComparison {
  kind: 'cmp'
  field: string
  op: Comparison['op']
  type: IndexType | undefined
  /** The operand (`eq neq gt gte lt lte prefix contains`). */
  value?: FieldValue
  /** The operands of `in`. */
  values?: FieldValue[]
  /** For `exists`: whether the field must exist. */
  exists?: boolean
}

/** A checked condition. */
export type Compiled =
  | CompiledComparison
  | { kind: 'and'; items: Compiled[] }
  | { kind: 'or'; items: Compiled[] }
  | { kind: 'not'; item: Compiled }

const MAX_DEPTH = 16
const MAX_COMPARISONS = 128
const MAX_IN_VALUES = 1000

function invalid(message: string): EngineError {
  return new EngineError('INVALID_INPUT', `invalid query: ${message}`)
}

/**
 * The type a field is compared as: its declared index type, else a virtual field's own type,
 * else the type of the operand (a number, a boolean or a string).
 */
export function fieldType(field: string, config: IndexConfig | undefined): IndexType | undefined {
  const declared = config?.indexes.find((index) => index.field === field)?.type
  return declared ?? virtualType(field)
}

function operandType(value: unknown): IndexType | undefined {
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'string') return 'string'
  return undefined
}

function checkField(field: unknown, at: string): string {
  if (typeof field !== 'string') throw invalid(`${at}.field must be a string`)
  if (field.startsWith('@')) {
    if (!(field in VIRTUAL_FIELDS)) throw invalid(`${at}.field: unknown virtual field ${field}`)
  } else if (!isJsonPointer(field) || field === '') {
    throw invalid(
      `${at}.field must be a JSON pointer like "/status" or a virtual field like "@size"`,
    )
  }
  return field
}

function operand(value: unknown, type: IndexType, at: string): FieldValue {
  const read = asFieldValue(value, type)
  if (read === undefined) throw invalid(`${at}.value must be a ${type}`)
  return read
}

/** Checks a condition against the directory's config and reads its operands. */
export function compileCondition(
  condition: Condition | undefined,
  config: IndexConfig | undefined,
): Compiled | undefined {
  if (condition === undefined) return undefined
  let comparisons = 0
  const walk = (node: unknown, at: string, depth: number): Compiled => {
    if (depth > MAX_DEPTH) throw invalid(`nested deeper than ${MAX_DEPTH}`)
    if (typeof node !== 'object' || node === null || Array.isArray(node))
      throw invalid(`${at} must be an object`)
    const keys = Object.keys(node)
    if (keys.length === 1 && (keys[0] === 'and' || keys[0] === 'or')) {
      const items = (node as Record<string, unknown>)[keys[0]]
      if (!Array.isArray(items) || items.length === 0)
        throw invalid(`${at}.${keys[0]} must be a non-empty array`)
      return {
        kind: keys[0],
        items: items.map((item, i) => walk(item, `${at}.${keys[0]}[${i}]`, depth + 1)),
      }
    }
    if (keys.length === 1 && keys[0] === 'not') {
      const inner = (node as { not: unknown }).not
      const single = Array.isArray(inner) ? (inner.length === 1 ? inner[0] : undefined) : inner
      if (single === undefined) throw invalid(`${at}.not takes one condition`)
      return { kind: 'not', item: walk(single, `${at}.not`, depth + 1) }
    }
    const { field, op, value, ...rest } = node as Record<string, unknown>
    const extra = Object.keys(rest)
    if (extra.length > 0)
      throw invalid(`${at}: unknown key "${extra[0]}" (a comparison is {field, op, value})`)
    if (++comparisons > MAX_COMPARISONS) throw invalid(`more than ${MAX_COMPARISONS} comparisons`)
    const name = checkField(field, at)
    if (typeof op !== 'string' || !(QUERY_OPERATORS as readonly string[]).includes(op))
      throw invalid(`${at}.op must be one of ${QUERY_OPERATORS.join(', ')}`)
    const cmp = op as Comparison['op']
    if (cmp === 'exists') {
      if (value !== undefined && typeof value !== 'boolean')
        throw invalid(`${at}.value of exists must be true or false`)
      return { kind: 'cmp', field: name, op: cmp, type: undefined, exists: value !== false }
    }
    if (cmp === 'in') {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES)
        throw invalid(`${at}.value of in must be an array of 1 to ${MAX_IN_VALUES} values`)
      const type = fieldType(name, config) ?? operandType(value[0])
      if (type === undefined) throw invalid(`${at}.value must hold strings, numbers or booleans`)
      return {
        kind: 'cmp',
        field: name,
        op: cmp,
        type,
        values: value.map((v, i) => operand(v, type, `${at}.value[${i}]`)),
      }
    }
    const type = fieldType(name, config) ?? operandType(value)
    if (type === undefined) throw invalid(`${at}.value must be a string, a number or a boolean`)
    if (cmp === 'prefix' && type !== 'string')
      throw invalid(`${at}: prefix compares strings, and ${name} is a ${type}`)
    return { kind: 'cmp', field: name, op: cmp, type, value: operand(value, type, at) }
  }
  return walk(condition, 'where', 0)
}

/** Every field a condition reads. */
export function conditionFields(
  compiled: Compiled | undefined,
  into = new Set<string>(),
): Set<string> {
  if (compiled === undefined) return into
  if (compiled.kind === 'cmp') into.add(compiled.field)
  else if (compiled.kind === 'not') conditionFields(compiled.item, into)
  else for (const item of compiled.items) conditionFields(item, into)
  return into
}
