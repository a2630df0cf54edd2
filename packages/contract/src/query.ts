import { QUERY_OPERATORS } from '@svcdb/engine/query-language'
import type { Comparison, Condition } from '@svcdb/engine/query-language'
import * as v from 'valibot'
import { entryViewSchema } from './files'

/**
 * Comparison operators of `POST /files/query` (DESIGN §3.8): the engine's, which runs queries,
 * from its runtime-neutral subpath (no Node built-ins, so the contract still loads in browsers).
 */
export { QUERY_OPERATORS }

/** One comparison: a JSON pointer (`/status`) or virtual field (`@size`), an operator, a value. */
export type QueryComparison = Comparison

/** A query condition: a comparison, or `and`/`or` of conditions, or `not` of one. */
export type QueryCondition = Condition

const comparisonSchema = v.strictObject({
  field: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  op: v.picklist(QUERY_OPERATORS),
  value: v.optional(v.unknown()),
})

/** A condition, checked for shape; the server checks fields and operand types against the directory. */
export const queryConditionSchema: v.GenericSchema<QueryCondition> = v.lazy(() =>
  v.union([
    comparisonSchema,
    v.strictObject({ and: v.pipe(v.array(queryConditionSchema), v.minLength(1)) }),
    v.strictObject({ or: v.pipe(v.array(queryConditionSchema), v.minLength(1)) }),
    v.strictObject({ not: v.union([queryConditionSchema, v.tuple([queryConditionSchema])]) }),
  ]),
) as v.GenericSchema<QueryCondition>

/** `POST /files/query`. */
export const queryBodySchema = v.strictObject({
  /** The directory whose documents are queried. */
  path: v.pipe(v.string(), v.startsWith('/', 'must be an absolute path'), v.maxLength(4096)),
  where: v.optional(queryConditionSchema),
  /** A field (ascending) or `{field, direction}`; default `@path`. */
  order_by: v.optional(
    v.union([
      v.string(),
      v.strictObject({ field: v.string(), direction: v.optional(v.picklist(['asc', 'desc'])) }),
    ]),
  ),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000))),
  after: v.optional(v.string()),
  snapshot: v.optional(v.string()),
  version: v.optional(v.string()),
  fork: v.optional(v.string()),
})

/** A query request as the caller writes it. */
export type QueryBody = v.InferInput<typeof queryBodySchema>

/** A page of query answers: files as listings show them, `next` while more remain. */
export const queryResultSchema = v.object({
  items: v.array(entryViewSchema),
  next: v.optional(v.string()),
  /** `index` when an index drove the query, `scan` when every document was read. */
  plan: v.picklist(['index', 'scan']),
})

/** A page of query answers. */
export type QueryResultView = v.InferOutput<typeof queryResultSchema>
