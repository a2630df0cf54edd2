import * as v from 'valibot'
import { AuthError } from '../errors'
import { parseInput } from '../internal/parse-input'
import { MAX_GLOB_ALTERNATIVES, countGlobAlternatives } from '../permissions/glob-alternatives'
import { isPathPattern } from '../permissions/path-glob'

/**
 * A group (spec "Group"): users whose `queryField` satisfies `queryOperator queryValue` are
 * members, and get `crudli--` on paths matching `defaultAllow` but not `defaultDeny`.
 */
export interface Group {
  /** Unique. */
  name: string
  /** Path glob of what members may access; `''` allows nothing. */
  defaultAllow: string
  /** Path glob taken back from `defaultAllow` (deny wins); `''` denies nothing. */
  defaultDeny: string
  queryField: SafeQueryField
  queryOperator: QueryOperator
  queryValue: string
  createdAt: number
  updatedAt: number
}

/** The user fields a group may query (DESIGN §4); any other field is refused. */
export const SAFE_QUERY_FIELDS = [
  'user_id',
  'username',
  'is_active',
  'tags',
  'created_at',
  'updated_at',
] as const

/** A field of {@link SAFE_QUERY_FIELDS}. */
export type SafeQueryField = (typeof SAFE_QUERY_FIELDS)[number]

/**
 * Comparison operators of group membership (spec "Group"). Not the file query language of
 * `@svcdb/engine` and `@svcdb/contract` that shares the export name: a vocabulary of its
 * own over user fields (`starts_with`, `has*`; no `prefix`, `exists`). `has`, `has_any` and `has_all` exist for `tags` only; the others
 * compare numerically on the timestamps and as strings otherwise (on `tags`, against the
 * comma-joined tag string). `in` takes a comma-separated list.
 */
export const QUERY_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'contains',
  'starts_with',
  'has',
  'has_any',
  'has_all',
] as const

/** An operator of {@link QUERY_OPERATORS}. */
export type QueryOperator = (typeof QUERY_OPERATORS)[number]

/** Fields of a new group (all required, as in the spec). */
export interface CreateGroupInput {
  name: string
  defaultAllow: string
  defaultDeny: string
  queryField: string
  queryOperator: string
  queryValue: string
}

/** Fields to change; a group cannot be renamed (shares name it). */
export type UpdateGroupInput = Partial<CreateGroupInput>

const ORDERED_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in'] as const
const operatorsOf: Record<SafeQueryField, readonly QueryOperator[]> = {
  user_id: [...ORDERED_OPERATORS, 'contains', 'starts_with'],
  username: [...ORDERED_OPERATORS, 'contains', 'starts_with'],
  is_active: ['eq', 'neq', 'in'],
  tags: QUERY_OPERATORS,
  created_at: ORDERED_OPERATORS,
  updated_at: ORDERED_OPERATORS,
}

const pattern = v.pipe(
  v.string('must be a string'),
  v.check((s) => s === '' || isPathPattern(s), 'must be an absolute path pattern or empty'),
  v.check(
    (s) => countGlobAlternatives(s) <= MAX_GLOB_ALTERNATIVES,
    `its brace sets ({a,b}, {1..9}) may expand to at most ${MAX_GLOB_ALTERNATIVES} patterns`,
  ),
)
const fields = {
  name: v.pipe(
    v.string('must be a string'),
    v.regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
      'must be 1 to 64 letters, digits or . _ -, starting with a letter or digit',
    ),
  ),
  defaultAllow: pattern,
  defaultDeny: pattern,
  queryField: v.string('must be a string'),
  queryOperator: v.string('must be a string'),
  queryValue: v.pipe(v.string('must be a string'), v.maxLength(1024, 'at most 1024 characters')),
}
const createSchema = v.strictObject(fields, 'must be an object with the six group fields')
const updateSchema = v.strictObject(
  {
    name: v.exactOptional(fields.name),
    defaultAllow: v.exactOptional(fields.defaultAllow),
    defaultDeny: v.exactOptional(fields.defaultDeny),
    queryField: v.exactOptional(fields.queryField),
    queryOperator: v.exactOptional(fields.queryOperator),
    queryValue: v.exactOptional(fields.queryValue),
  },
  'must be an object with any of the group fields',
)

/** True for a field of {@link SAFE_QUERY_FIELDS}. */
export function isSafeQueryField(value: unknown): value is SafeQueryField {
  return (SAFE_QUERY_FIELDS as readonly unknown[]).includes(value)
}

/** The non-empty, trimmed items of a comma-separated list. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

/**
 * Validates a new group's fields.
 *
 * @throws {AuthError} `UNSAFE_QUERY_FIELD` for a field outside {@link SAFE_QUERY_FIELDS},
 * `INVALID_INPUT` for anything else malformed.
 */
export function parseCreateGroupInput(input: unknown): CreateGroupInput {
  const parsed = parseInput(createSchema, input)
  checkQuery(parsed.queryField, parsed.queryOperator, parsed.queryValue)
  return parsed
}

/**
 * Validates a change to `current` and returns the group it makes (with `updatedAt` set).
 *
 * @throws {AuthError} as {@link parseCreateGroupInput}; `INVALID_INPUT` for a rename.
 */
export function applyGroupUpdate(current: Group, input: unknown, now: number): Group {
  const patch = parseInput(updateSchema, input)
  if (patch.name !== undefined && patch.name !== current.name) {
    throw new AuthError('INVALID_INPUT', 'name: a group cannot be renamed; create a new group')
  }
  const next = { ...current, ...patch }
  checkQuery(next.queryField, next.queryOperator, next.queryValue)
  return { ...next, updatedAt: now } as Group
}

function checkQuery(field: string, operator: string, value: string): void {
  if (!isSafeQueryField(field)) {
    throw new AuthError(
      'UNSAFE_QUERY_FIELD',
      `queryField: ${JSON.stringify(field)} is not one of ${SAFE_QUERY_FIELDS.join(', ')}`,
    )
  }
  const allowed = operatorsOf[field]
  if (!allowed.some((op) => op === operator)) {
    throw new AuthError(
      'INVALID_INPUT',
      `queryOperator: on ${field}, must be one of ${allowed.join(', ')}`,
    )
  }
  const items = operator === 'in' || operator === 'has_any' || operator === 'has_all'
  const values = items ? commaList(value) : [value]
  if (values.length === 0) throw new AuthError('INVALID_INPUT', 'queryValue: must list values')
  if ((field === 'created_at' || field === 'updated_at') && !values.every(isInteger)) {
    throw new AuthError('INVALID_INPUT', 'queryValue: must be Unix milliseconds')
  }
  if (field === 'is_active' && !values.every((s) => s === 'true' || s === 'false')) {
    throw new AuthError('INVALID_INPUT', 'queryValue: must be true or false')
  }
}

const isInteger = (s: string) => /^-?\d{1,16}$/.test(s.trim())
