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
