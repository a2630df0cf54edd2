import * as v from 'valibot'
import { booleanQuerySchema } from './query-values'

/** What a path holds, in listings and write answers (DESIGN §7.1). */
export const entryViewSchema = v.object({
  path: v.string(),
  name: v.string(),
  entry_type: v.picklist(['file', 'directory', 'symlink']),
  size: v.number(),
  hash: v.string(),
  content_type: v.nullable(v.string()),
  created_at: v.number(),
  updated_at: v.number(),
  target: v.optional(v.string()),
  effective_permissions: v.optional(v.string()),
})

/** An entry as the API shows it. */
export type EntryView = v.InferOutput<typeof entryViewSchema>

/** `PUT /files/{path}`: the file written and the version it made. */
export const writeResultSchema = v.object({
  path: v.string(),
  name: v.string(),
  entry_type: v.literal('file'),
  size: v.number(),
  content_type: v.string(),
  hash: v.string(),
  version: v.string(),
  created_at: v.number(),
  updated_at: v.number(),
})

/** The answer of mkdir, move, copy, symlink and delete. */
export const changeResultSchema = v.object({
  path: v.string(),
  entry_type: v.picklist(['file', 'directory', 'symlink']),
  version: v.string(),
})

/** A page of a directory listing: never silently truncated (`next` when more remain). */
export const listingSchema = v.object({
  items: v.array(entryViewSchema),
  total: v.number(),
  limit: v.number(),
  offset: v.number(),
  next: v.optional(v.string()),
})

/** Query of file routes: `fork` writes to a fork; reads also take `snapshot` or `version`. */
export const forkQuerySchema = v.object({ fork: v.optional(v.string()) })

const integerString = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^-?\d+$/, 'expected an integer'),
    v.transform(Number),
    v.minValue(min),
    v.maxValue(max),
  )

/** Longest listing glob, as the engine allows. */
const MAX_GLOB_LENGTH = 256

/**
 * A listing glob: at most 256 characters, checked before anything matches with it. Its brace
 * alternatives (at most 64) are counted by the engine, which refuses a bomb with 400 before it
 * reads a single entry.
 */
export const listingGlobSchema = v.pipe(
  v.string(),
  v.maxLength(MAX_GLOB_LENGTH, `a glob is at most ${MAX_GLOB_LENGTH} characters long`),
)

/** Query of `GET /files/{path}`. */
export const readQuerySchema = v.object({
  fork: v.optional(v.string()),
  snapshot: v.optional(v.string()),
  version: v.optional(v.string()),
  limit: v.optional(integerString(1, 10_000), '1000'),
  offset: v.optional(integerString(0, Number.MAX_SAFE_INTEGER), '0'),
  after: v.optional(v.string()),
  depth: v.optional(v.pipe(v.picklist(['0', '-1'], 'expected 0 or -1'), v.transform(Number)), '0'),
  glob: v.optional(listingGlobSchema),
  nofollow: booleanQuerySchema,
  /** Answer the entry itself (`entryViewSchema`) instead of its bytes or listing. */
  stat: booleanQuerySchema,
})

/** `DELETE /files/{path}`. */
export const deleteQuerySchema = v.object({
  fork: v.optional(v.string()),
  recursive: booleanQuerySchema,
})

/** `{path*}` parameter of file routes. */
export const filePathParamsSchema = v.object({ path: v.string() })
