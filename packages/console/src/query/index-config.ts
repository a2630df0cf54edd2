/** The types an index reads its field as (DESIGN §3.8). */
export type FieldType = 'string' | 'number' | 'timestamp' | 'boolean'

/** A field a query may name: a JSON pointer or a virtual field, its type, whether indexed. */
export interface QueryField {
  field: string
  type: FieldType
  indexed: boolean
}

/** A directory's `.svcdb/indexes.json`, as the console shows it. */
export interface IndexConfigView {
  /** Which files are documents, relative to the directory (`*` when the file says nothing). */
  glob: string
  indexes: { field: string; type: FieldType }[]
}

/** The facts of a file every query may read, indexed or not, with their types. */
export const VIRTUAL_FIELDS: readonly { field: string; type: FieldType }[] = [
  { field: '@path', type: 'string' },
  { field: '@name', type: 'string' },
  { field: '@extension', type: 'string' },
  { field: '@size', type: 'number' },
  { field: '@content_type', type: 'string' },
  { field: '@created_at', type: 'timestamp' },
  { field: '@updated_at', type: 'timestamp' },
  { field: '@hash', type: 'string' },
]

const TYPES: readonly string[] = ['string', 'number', 'timestamp', 'boolean']

/**
 * Reads an index configuration for display. The server checks it strictly when it is
 * written; this only refuses what the screen could not show, with a message saying why.
 */
export function readIndexConfig(text: string): IndexConfigView {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Error('The index configuration is not JSON.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('The index configuration is not a JSON object.')
  const { glob, indexes } = value as Record<string, unknown>
  if (!Array.isArray(indexes)) throw new Error('The index configuration has no "indexes" list.')
  return {
    glob: typeof glob === 'string' && glob !== '' ? glob : '*',
    indexes: indexes.map((item: unknown, i) => {
      const { field, type } = (item ?? {}) as Record<string, unknown>
      if (typeof field !== 'string' || typeof type !== 'string' || !TYPES.includes(type))
        throw new Error(`Index ${i + 1} of the configuration has no valid field and type.`)
      return { field, type: type as FieldType }
    }),
  }
}

/** The fields a query form offers: the indexed ones first, then the other virtual fields. */
export function queryFields(config: IndexConfigView): QueryField[] {
  const indexed = config.indexes.map((index) => ({ ...index, indexed: true }))
  const named = new Set(indexed.map((index) => index.field))
  const virtual = VIRTUAL_FIELDS.filter((v) => !named.has(v.field)).map((v) => ({
    ...v,
    indexed: false,
  }))
  return [...indexed, ...virtual]
}
