import * as v from 'valibot'

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
