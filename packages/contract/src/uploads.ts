import * as v from 'valibot'
import { contentTypeSchema } from './content-type'
import { writeResultSchema } from './files'
import { versionHashSchema } from './query-values'

/** Files one `POST /uploads/commit-many` may commit (its body is also at most 1 MB of JSON). */
export const MAX_COMMIT_MANY_FILES = 10_000

/** A chunk of a file being committed: its id and its size in bytes. */
export const uploadChunkRefSchema = v.object({
  hash: versionHashSchema,
  size: v.pipe(v.number(), v.integer(), v.minValue(1)),
})

/** A file's path in an upload commit (the engine checks the rest). */
const uploadPathSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(4096))

/** A file's chunks, in order (none for an empty file). */
const uploadChunksSchema = v.pipe(v.array(uploadChunkRefSchema), v.maxLength(1_000_000))

/** `POST /uploads/commit`: one file made of chunks the caller sent. */
export const commitBodySchema = v.object({
  path: uploadPathSchema,
  chunks: uploadChunksSchema,
  content_type: v.optional(contentTypeSchema),
  hash: v.optional(versionHashSchema),
})

/** One file of `POST /uploads/commit-many`: as `/uploads/commit` takes it, plus metadata. */
export const commitManyFileSchema = v.object({
  path: uploadPathSchema,
  chunks: uploadChunksSchema,
  content_type: v.optional(contentTypeSchema),
  /** The content hash the chunks must make, checked by the server when given. */
  hash: v.optional(versionHashSchema),
  /** User metadata: a JSON object (at most 64 KiB as text). */
  metadata: v.optional(
    v.pipe(
      v.unknown(),
      v.check(
        (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
        'must be a JSON object',
      ),
      v.transform((value) => value as Record<string, unknown>),
    ),
  ),
})

/** A file of a bulk commit, as sent. */
export type CommitManyFile = v.InferInput<typeof commitManyFileSchema>

/** `POST /uploads/commit-many`: 1 to {@link MAX_COMMIT_MANY_FILES} files, committed as one version. */
export const commitManyBodySchema = v.object({
  files: v.pipe(
    v.array(commitManyFileSchema),
    v.minLength(1, 'at least one file is needed'),
    v.maxLength(
      MAX_COMMIT_MANY_FILES,
      `at most ${MAX_COMMIT_MANY_FILES} files per request: commit the rest in another`,
    ),
  ),
})

/** The answer of `POST /uploads/commit-many`: the version made, and each file as `/uploads/commit` answers it. */
export const commitManyResultSchema = v.object({
  version: v.string(),
  files: v.array(writeResultSchema),
})

/** The answer of `POST /uploads/commit-many`. */
export type CommitManyResultView = v.InferOutput<typeof commitManyResultSchema>
