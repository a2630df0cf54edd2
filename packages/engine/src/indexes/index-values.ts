import type { DocumentFacts } from '../read/query-types'
import type { IndexType } from './index-config'
import { VIRTUAL_FIELDS } from './index-config'
import type { VirtualField } from './index-config'

/** A value as indexes hold and queries compare it; timestamps are Unix milliseconds. */
export type FieldValue = string | number | boolean

/** Strings longer than this are indexed by their first this-many characters. */
export const MAX_INDEXED_STRING = 1024

/** The value at a JSON pointer (RFC 6901), or `undefined` when the path does not exist. */
export function readPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document
  let current = document
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined
      current = current[Number(token)]
    } else if (typeof current === 'object' && current !== null) {
      if (!Object.hasOwn(current, token)) return undefined
      current = (current as Record<string, unknown>)[token]
    } else {
      return undefined
    }
  }
  return current
}

/** A virtual field's value. */
export function readVirtual(field: VirtualField, facts: DocumentFacts): unknown {
  switch (field) {
    case '@path':
      return facts.path
    case '@name':
      return facts.name
    case '@extension': {
      const dot = facts.name.lastIndexOf('.')
      return dot <= 0 ? '' : facts.name.slice(dot + 1).toLowerCase()
    }
    case '@size':
      return facts.size
    case '@content_type':
      return facts.contentType ?? undefined
    case '@created_at':
      return facts.createdAt
    case '@updated_at':
      return facts.updatedAt
    case '@hash':
      return facts.hash
  }
}

/** Reads `field` of a document: a virtual field from its facts, a pointer from its JSON. */
export function readField(field: string, document: unknown, facts: DocumentFacts): unknown {
  return field.startsWith('@')
    ? readVirtual(field as VirtualField, facts)
    : readPointer(document, field)
}

/** The natural type of a virtual field, or `undefined` for a JSON pointer. */
export function virtualType(field: string): IndexType | undefined {
  return field.startsWith('@') ? VIRTUAL_FIELDS[field as VirtualField] : undefined
}

/**
 * A raw value read as `type`, or `undefined` when it is not of that type: a string for
 * `string` (well-formed Unicode only), a finite number for `number`, a boolean for
 * `boolean`, and for `timestamp` a finite number of milliseconds or a string `Date.parse`
 * reads (ISO 8601).
 */
export function asFieldValue(raw: unknown, type: IndexType): FieldValue | undefined {
  switch (type) {
    case 'string':
      return typeof raw === 'string' && !LONE_SURROGATE.test(raw) ? raw : undefined
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw + 0 : undefined
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined
    case 'timestamp': {
      if (typeof raw === 'number') return Number.isFinite(raw) ? raw + 0 : undefined
      if (typeof raw !== 'string') return undefined
      const ms = Date.parse(raw)
      return Number.isFinite(ms) ? ms : undefined
    }
  }
}

// Such strings cannot round-trip through UTF-8, so index keys could not be found again.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Compares two values of one type: -1, 0 or 1. */
export function compareValues(a: FieldValue, b: FieldValue): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const view = new DataView(new ArrayBuffer(8))

/**
 * A string that sorts, under JavaScript string order, as the value sorts: numbers as 16 hex
 * digits of their IEEE 754 bits with the sign flipped, booleans as `0`/`1`, strings escaped
 * so that `\u0000` can end them (`\u0000` → `\u0001\u0001`, `\u0001` → `\u0001\u0002`).
 */
export function encodeValue(value: FieldValue): string {
  if (typeof value === 'boolean') return value ? '1' : '0'
  if (typeof value === 'number') {
    view.setFloat64(0, value + 0)
    let hi = view.getUint32(0)
    let lo = view.getUint32(4)
    if (hi >>> 31 === 0) hi = (hi | 0x80000000) >>> 0
    else {
      hi = ~hi >>> 0
      lo = ~lo >>> 0
    }
    return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0')
  }
  const text = value.length > MAX_INDEXED_STRING ? value.slice(0, MAX_INDEXED_STRING) : value
  // NUL ends an encoded value in a key, so it and the escape character are escaped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0001' : '\u0001\u0002'))
}

/** The key of a document in an index: its encoded value, a NUL, its path in the directory. */
export function indexKey(value: FieldValue, relPath: string): string {
  return `${encodeValue(value)}\u0000${relPath}`
}

/** The path part of an index key (names never hold NUL; encoded values escape it). */
export function relPathOfKey(key: string): string {
  return key.slice(key.lastIndexOf('\u0000') + 1)
}

/** The encoded-value part of an index key. */
export function valuePartOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf('\u0000'))
}
