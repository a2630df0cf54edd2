import * as v from 'valibot'
import { versionHashSchema } from './query-values'

/** `POST /versions/import` (spec "Import result"). */
export const importResultSchema = v.object({
  status: v.string(),
  backup_type: v.string(),
  entries_imported: v.number(),
  chunks_imported: v.number(),
  files_imported: v.number(),
  directories_imported: v.number(),
  deletions_applied: v.number(),
  version_hash: v.string(),
  head_promoted: v.boolean(),
})

/** The import result. */
export type ImportResultView = v.InferOutput<typeof importResultSchema>

/** `POST /versions/promote`. */
export const promoteResponseSchema = v.object({ status: v.string(), head: v.string() })

/** Largest archive `POST /versions/import` accepts (spec "Limits"): 10 MB, counted as MiB. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024

/** Where archives too large for an import body are staged (`POST /versions/import?from=`). */
export const IMPORT_STAGING_DIR = '/.svcdb/staging/'

/**
 * A staged archive's path: a file directly under {@link IMPORT_STAGING_DIR}, named with
 * 1–128 of `A-Z a-z 0-9 . _ -` (no `..`, no subdirectory), so an import can never name, nor
 * delete afterwards, any other file.
 */
export const stagingPathSchema = v.pipe(
  v.string(),
  v.regex(
    /^\/\.svcdb\/staging\/(?!\.)[A-Za-z0-9._-]{1,128}$/,
    `expected a file directly under ${IMPORT_STAGING_DIR}`,
  ),
)

/**
 * `expect_head` of the routes that replace HEAD's history (promote, fork promote, snapshot
 * restore): answer 409 `CONFLICT` and change nothing unless HEAD is this hex hash.
 */
export const expectHeadQuerySchema = v.object({ expect_head: v.optional(versionHashSchema) })

/** Largest page of `GET /versions/log`. */
export const MAX_HEAD_LOG_PAGE = 1000

/** Query of `GET /versions/log`: `limit` 1–1000 (default 100), `cursor` from the previous page. */
export const headLogQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'expected an integer from 1 to 1000'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(MAX_HEAD_LOG_PAGE),
    ),
    '100',
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(64))),
})

/** One HEAD move that replaced history (`GET /versions/log`). */
export const headLogEntrySchema = v.object({
  /** Hex hash HEAD moved to. */
  head: v.string(),
  /** Hex hash HEAD held before: `POST /versions/promote?hash=<previous>` undoes the move. */
  previous: v.string(),
  cause: v.picklist(['promote', 'fork_promote', 'import', 'restore']),
  /** Unix milliseconds. */
  at: v.number(),
  /** Who moved it (a user id); `null` when unknown. */
  by: v.nullable(v.string()),
})

/** A HEAD log entry as the API shows it. */
export type HeadLogEntryView = v.InferOutput<typeof headLogEntrySchema>

/** A page of the HEAD log, newest first; `cursor` is `null` on the last page. */
export const headLogPageSchema = v.object({
  items: v.array(headLogEntrySchema),
  cursor: v.nullable(v.string()),
})

/** A page of the HEAD log as the API shows it. */
export type HeadLogPageView = v.InferOutput<typeof headLogPageSchema>

/** Largest page of `GET /versions/changes`. */
export const MAX_VERSION_CHANGES_PAGE = 1000

/** A version in a query: a 64-digit hex hash, a snapshot name, or `HEAD`. */
const versionSpecSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(128))

/**
 * Query of `GET /versions/changes`: `from` and `to` (HEAD when absent) are each a hex hash, a
 * snapshot name or `HEAD`; `limit` 1–1000 (default 100), `cursor` from the previous page.
 */
export const versionChangesQuerySchema = v.object({
  from: versionSpecSchema,
  to: v.optional(versionSpecSchema),
  limit: headLogQuerySchema.entries.limit,
  // Opaque to clients; the server's form is a tag (`c`/`d`) and a path of up to 4096 bytes.
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(4097),
      v.regex(/^[cd]\//, 'expected the cursor of a previous page'),
    ),
  ),
})

/** One entry that differs between two versions (`GET /versions/changes`). */
export const versionChangeSchema = v.object({
  path: v.string(),
  /**
   * `added`: absent in `from`; `modified`: the same kind of entry with other content (a
   * file's bytes or metadata, a symlink's target); `deleted`: absent in `to`. An entry that
   * changed kind is `deleted`, then `added`.
   */
  change: v.picklist(['added', 'modified', 'deleted']),
  type: v.picklist(['file', 'directory', 'symlink']),
})

/** An entry that differs between two versions, as the API shows it. */
export type VersionChangeView = v.InferOutput<typeof versionChangeSchema>

/** A page of the changes between two versions, in path order; `cursor` is `null` on the last page. */
export const versionChangesPageSchema = v.object({
  items: v.array(versionChangeSchema),
  cursor: v.nullable(v.string()),
})

/** A page of version changes as the API shows it. */
export type VersionChangesPageView = v.InferOutput<typeof versionChangesPageSchema>
