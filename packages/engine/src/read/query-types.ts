// The vocabulary lives in query-language/ (a subpath of its own, for the wire contract).
export { QUERY_OPERATORS } from '../query-language'
export type { Comparison, Condition, QueryOperator } from '../query-language'
import type { Condition } from '../query-language'

/** How results are ordered: by a field, ascending unless `desc`. */
export interface OrderBy {
  field: string
  direction?: 'asc' | 'desc'
}

/** A query of the documents of one indexed directory. */
export interface QueryOptions {
  /** The directory (it need not have an index configuration: then every query scans). */
  path: string
  where?: Condition
  /**
   * Default: `@path` ascending (by relative path, in string order). Ordering by a field
   * keeps only documents that have a value of the field's type.
   */
  orderBy?: OrderBy | string
  /** Items per page: 1 to 1000, default 100. */
  limit?: number
  /** The `next` cursor of the previous page. */
  after?: string
  signal?: AbortSignal
  /** Documents for which this answers false are left out (a caller's read permission). */
  canRead?: (path: string) => boolean
}

/** What a document is besides its JSON: the facts virtual fields read. */
export interface DocumentFacts {
  /** Absolute path. */
  path: string
  name: string
  size: number
  contentType: string | null
  createdAt: number
  updatedAt: number
  /** Hex content hash. */
  hash: string
}

/** A document in a query answer: the facts its virtual fields read. */
export type QueryItem = DocumentFacts

/** A page of answers. */
export interface QueryResult {
  items: QueryItem[]
  /** Present while more answers remain: pass it as `after`. */
  next?: string
  /** `index` when an index drove the query, `scan` when every document was read. */
  plan: 'index' | 'scan'
}
