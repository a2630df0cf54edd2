import * as v from 'valibot'
import { versionHashSchema } from './query-values'

/** A snapshot or fork name: 1 to 128 characters (the engine checks the rest). */
export const versionNameSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(128))

/** A named, immutable version (`/versions/snapshots`). */
export const snapshotSchema = v.object({
  name: v.string(),
  version: v.string(),
  /** Unix milliseconds. */
  created_at: v.number(),
  metadata: v.optional(v.record(v.string(), v.unknown())),
})

/** A snapshot as the API shows it. */
export type SnapshotView = v.InferOutput<typeof snapshotSchema>

/** `POST /versions/snapshots`: `metadata` is a JSON object (at most 64 KiB as text). */
export const createSnapshotBodySchema = v.strictObject({
  name: versionNameSchema,
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

/** A writable line of versions beside HEAD (`/versions/forks`). */
export const forkSchema = v.object({
  name: v.string(),
  /** The fork's latest version. */
  version: v.string(),
  /** The version it started from. */
  base: v.string(),
  /** Unix milliseconds. */
  created_at: v.number(),
})

/** A fork as the API shows it. */
export type ForkView = v.InferOutput<typeof forkSchema>

/** `POST /versions/forks`: `base` is a snapshot name or a version hash (HEAD when absent). */
export const createForkBodySchema = v.strictObject({
  name: versionNameSchema,
  base: v.optional(versionNameSchema),
})

/** HEAD moved to another version (restore, fork promote). */
export const headMoveSchema = v.object({
  status: v.string(),
  head: v.string(),
  previous: v.string(),
})

/** `POST /versions/restore`: HEAD := the snapshot's version. */
export const restoreVersionBodySchema = v.strictObject({ name: versionNameSchema })

/** `POST /versions/restore/{path*}`: where the entry comes back from, exactly one of the two. */
export const restorePathBodySchema = v.pipe(
  v.strictObject({
    snapshot: v.optional(versionNameSchema),
    // HEAD denotes the current version (spec), wherever a version is named.
    version: v.optional(
      v.union([v.literal('HEAD'), versionHashSchema], 'expected a 64-digit hex hash or HEAD'),
    ),
  }),
  v.check(
    (body) => (body.snapshot === undefined) !== (body.version === undefined),
    'give exactly one of snapshot and version',
  ),
)

/** One point of a path's history, newest first. */
export const historyEntrySchema = v.object({
  snapshot: v.optional(v.string()),
  version: v.string(),
  /** Unix milliseconds. */
  timestamp: v.number(),
  change_type: v.picklist(['added', 'modified', 'deleted', 'unchanged']),
  size: v.number(),
  content_type: v.nullable(v.string()),
  hash: v.nullable(v.string()),
})

/** A history point as the API shows it. */
export type HistoryEntryView = v.InferOutput<typeof historyEntrySchema>

/** `GET /versions/history/{path*}`. */
export const historySchema = v.object({ path: v.string(), items: v.array(historyEntrySchema) })
