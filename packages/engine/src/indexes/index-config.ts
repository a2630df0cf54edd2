import { EngineError } from '../errors'
import { MAX_GLOB_ALTERNATIVES, MAX_GLOB_LENGTH, countGlobAlternatives } from '../path/glob-limits'

/** Where a directory keeps its index configuration, relative to the directory. */
export const INDEX_CONFIG_PATH = '.svcdb/indexes.json'

/** Largest index configuration accepted, in bytes. */
export const MAX_INDEX_CONFIG_BYTES = 64 * 1024

/** Most indexes one directory may declare. */
export const MAX_INDEXES = 32

/** The value types an index orders by. */
export type IndexType = 'string' | 'number' | 'timestamp' | 'boolean'

/** Virtual fields: facts of the entry rather than of a JSON document. */
export const VIRTUAL_FIELDS = {
  '@path': 'string',
  '@name': 'string',
  '@extension': 'string',
  '@size': 'number',
  '@content_type': 'string',
  '@created_at': 'timestamp',
  '@updated_at': 'timestamp',
  '@hash': 'string',
} as const satisfies Record<string, IndexType>

/** A virtual field name. */
export type VirtualField = keyof typeof VIRTUAL_FIELDS

/** One declared index: a field (JSON pointer or virtual field) and the type it is read as. */
export interface IndexDefinition {
  field: string
  type: IndexType
}

/**
 * A directory's index configuration (`<dir>/.svcdb/indexes.json`, DESIGN §3.8): which files
 * are documents (`glob`, relative to the directory; `*` by default: its own files) and the
 * fields indexed.
 */
export interface IndexConfig {
  glob: string
  indexes: IndexDefinition[]
}

const TYPES = new Set<IndexType>(['string', 'number', 'timestamp', 'boolean'])

function invalid(message: string): EngineError {
  return new EngineError('INVALID_INPUT', `invalid index configuration: ${message}`)
}

/** True for a JSON pointer (RFC 6901): empty, or `/`-separated tokens with `~0`/`~1` escapes. */
export function isJsonPointer(text: string): boolean {
  return text === '' || (text.startsWith('/') && !/~[^01]|~$/.test(text))
}

/**
 * Parses and checks an index configuration. Every problem is an `INVALID_INPUT` naming the
 * offending field, so a writer learns what to fix.
 *
 * @example
 * parseIndexConfig('{"glob": "*.json", "indexes": [{"field": "/status", "type": "string"}]}')
 */
export function parseIndexConfig(text: string): IndexConfig {
  if (new TextEncoder().encode(text).length > MAX_INDEX_CONFIG_BYTES)
    throw invalid(`larger than ${MAX_INDEX_CONFIG_BYTES} bytes`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw invalid(`not JSON (${(err as Error).message})`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('must be a JSON object with "indexes"')
  const { glob, indexes, ...rest } = value as Record<string, unknown>
  const extra = Object.keys(rest)
  if (extra.length > 0) throw invalid(`unknown field "${extra[0]}" (allowed: glob, indexes)`)
  if (glob !== undefined && (typeof glob !== 'string' || glob === ''))
    throw invalid('"glob" must be a non-empty string')
  if (typeof glob === 'string' && glob.length > MAX_GLOB_LENGTH)
    throw invalid(`"glob" is longer than ${MAX_GLOB_LENGTH} characters`)
  // Every document is tested against every alternative, on each write to the directory.
  if (typeof glob === 'string' && countGlobAlternatives(glob) > MAX_GLOB_ALTERNATIVES)
    throw invalid(
      `"glob" expands to more than ${MAX_GLOB_ALTERNATIVES} patterns through its braces ({a,b} counts 2, {1..20} counts 20)`,
    )
  if (!Array.isArray(indexes)) throw invalid('"indexes" must be an array')
  if (indexes.length > MAX_INDEXES) throw invalid(`at most ${MAX_INDEXES} indexes`)
  const seen = new Set<string>()
  const parsed = indexes.map((item, i): IndexDefinition => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw invalid(`indexes[${i}] must be an object with "field" and "type"`)
    const { field, type, ...more } = item as Record<string, unknown>
    const unknown = Object.keys(more)
    if (unknown.length > 0) throw invalid(`indexes[${i}]: unknown field "${unknown[0]}"`)
    if (typeof field !== 'string')
      throw invalid(`indexes[${i}].field must be a JSON pointer or a virtual field`)
    if (field.startsWith('@')) {
      if (!(field in VIRTUAL_FIELDS))
        throw invalid(
          `indexes[${i}].field: unknown virtual field ${field} (known: ${Object.keys(VIRTUAL_FIELDS).join(', ')})`,
        )
    } else if (!isJsonPointer(field) || field === '' || field.length > 512) {
      throw invalid(`indexes[${i}].field must be a JSON pointer like "/status"`)
    }
    if (typeof type !== 'string' || !TYPES.has(type as IndexType))
      throw invalid(`indexes[${i}].type must be one of string, number, timestamp, boolean`)
    if (seen.has(field)) throw invalid(`indexes[${i}]: ${field} is indexed twice`)
    seen.add(field)
    return { field, type: type as IndexType }
  })
  return { glob: (glob as string | undefined) ?? '*', indexes: parsed }
}
