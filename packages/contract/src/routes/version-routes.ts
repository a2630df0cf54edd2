import * as v from 'valibot'
import { booleanQuerySchema } from '../query-values'
import { defineRoute } from '../route'
import {
  expectHeadQuerySchema,
  headLogPageSchema,
  headLogQuerySchema,
  importResultSchema,
  promoteResponseSchema,
  stagingPathSchema,
  versionChangesPageSchema,
  versionChangesQuerySchema,
} from '../versions'

const versionName = v.pipe(v.string(), v.minLength(1), v.maxLength(128))

/**
 * Routes of /versions/*: archives out and in and promote (root), the HEAD log (read on `/`),
 * and the entries that differ between two versions (filtered to what the caller may read).
 */
export const versionRoutes = {
  versionsExport: defineRoute({
    id: 'versions.export',
    method: 'POST',
    path: '/versions/export',
    auth: 'root',
    request: {
      query: v.object({ snapshot: v.optional(versionName), hash: v.optional(v.string()) }),
    },
    /** Optional: raw 32-byte ids of chunks the caller holds, left out of the archive. */
    requestMediaType: 'application/octet-stream',
    requestBodyOptional: true,
    responseMediaType: 'application/octet-stream',
  }),
  versionsDiff: defineRoute({
    id: 'versions.diff',
    method: 'POST',
    path: '/versions/diff',
    auth: 'root',
    request: { query: v.object({ from: versionName, to: v.optional(versionName) }) },
    /** Optional: raw 32-byte ids of chunks the caller holds, left out of the patch. */
    requestMediaType: 'application/octet-stream',
    requestBodyOptional: true,
    responseMediaType: 'application/octet-stream',
  }),
  /**
   * The raw 32-byte ids of the chunks the export of `to` (HEAD by default), or with `from` the
   * patch, would carry, concatenated: a puller names those it holds in the export's or
   * patch's body, so they are not sent again. Not in the spec (DESIGN: replication).
   */
  versionsChunks: defineRoute({
    id: 'versions.chunks',
    method: 'GET',
    path: '/versions/chunks',
    auth: 'root',
    request: {
      query: v.object({ from: v.optional(versionName), to: v.optional(versionName) }),
    },
    responseMediaType: 'application/octet-stream',
  }),
  versionsImport: defineRoute({
    id: 'versions.import',
    method: 'POST',
    path: '/versions/import',
    auth: 'root',
    request: {
      query: v.object({
        force: booleanQuerySchema,
        promote: booleanQuerySchema,
        /** Import a staged archive (a file under `/.svcdb/staging/`, deleted afterwards) instead of the body. */
        from: v.optional(stagingPathSchema),
        /** The fork `from` was uploaded to (HEAD when absent). */
        fork: v.optional(v.string()),
        /** With `promote`: refuse with 409 unless HEAD is this version. */
        ...expectHeadQuerySchema.entries,
      }),
    },
    response: importResultSchema,
    requestMediaType: 'application/octet-stream',
  }),
  versionsPromote: defineRoute({
    id: 'versions.promote',
    method: 'POST',
    path: '/versions/promote',
    auth: 'root',
    request: { query: v.object({ hash: v.string(), ...expectHeadQuerySchema.entries }) },
    response: promoteResponseSchema,
  }),
  versionsLog: defineRoute({
    id: 'versions.log',
    method: 'GET',
    path: '/versions/log',
    auth: 'token',
    request: { query: headLogQuerySchema },
    response: headLogPageSchema,
  }),
  versionsChanges: defineRoute({
    id: 'versions.changes',
    method: 'GET',
    path: '/versions/changes',
    auth: 'token',
    request: { query: versionChangesQuerySchema },
    response: versionChangesPageSchema,
  }),
} as const
