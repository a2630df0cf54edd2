import * as v from 'valibot'
import { forkQuerySchema, writeResultSchema } from '../files'
import { versionHashSchema } from '../query-values'
import { defineRoute } from '../route'
import { commitBodySchema, commitManyBodySchema, commitManyResultSchema } from '../uploads'

/** Routes of /uploads/*: large uploads that send only the chunks the server lacks (DESIGN §7.1). */
export const uploadRoutes = {
  uploadsCheck: defineRoute({
    id: 'uploads.check',
    method: 'POST',
    path: '/uploads/check',
    auth: 'token',
    request: {
      body: v.object({ hashes: v.pipe(v.array(versionHashSchema), v.maxLength(100_000)) }),
    },
    response: v.object({ missing: v.array(v.string()) }),
  }),
  uploadsChunk: defineRoute({
    id: 'uploads.chunk',
    method: 'PUT',
    path: '/uploads/chunks/{hash}',
    auth: 'token',
    request: { params: v.object({ hash: versionHashSchema }) },
    response: v.object({ hash: v.string(), stored: v.boolean() }),
    requestMediaType: 'application/octet-stream',
  }),
  uploadsCommit: defineRoute({
    id: 'uploads.commit',
    method: 'POST',
    path: '/uploads/commit',
    auth: 'token',
    request: { query: forkQuerySchema, body: commitBodySchema },
    response: writeResultSchema,
  }),
  uploadsCommitMany: defineRoute({
    id: 'uploads.commitMany',
    method: 'POST',
    path: '/uploads/commit-many',
    auth: 'token',
    request: { query: forkQuerySchema, body: commitManyBodySchema },
    response: commitManyResultSchema,
  }),
} as const
