import * as v from 'valibot'
import { changeResultSchema, filePathParamsSchema } from '../files'
import {
  createForkBodySchema,
  createSnapshotBodySchema,
  forkSchema,
  headMoveSchema,
  historySchema,
  restorePathBodySchema,
  restoreVersionBodySchema,
  snapshotSchema,
  versionNameSchema,
} from '../named-versions'
import { defineRoute } from '../route'
import { expectHeadQuerySchema } from '../versions'

const nameParams = v.object({ name: versionNameSchema })

/**
 * Routes of /versions/snapshots, /versions/forks, /versions/history and /versions/restore
 * (DESIGN §7.1). Moving HEAD and managing forks is root's (spec "Root user").
 */
export const namedVersionRoutes = {
  snapshotsCreate: defineRoute({
    id: 'snapshots.create',
    method: 'POST',
    path: '/versions/snapshots',
    auth: 'token',
    request: { body: createSnapshotBodySchema },
    response: snapshotSchema,
    successStatus: 201,
  }),
  snapshotsList: defineRoute({
    id: 'snapshots.list',
    method: 'GET',
    path: '/versions/snapshots',
    auth: 'token',
    response: v.object({ items: v.array(snapshotSchema) }),
  }),
  snapshotsDelete: defineRoute({
    id: 'snapshots.delete',
    method: 'DELETE',
    path: '/versions/snapshots/{name}',
    auth: 'token',
    request: { params: nameParams },
    response: v.object({ deleted: v.literal(true), name: v.string() }),
  }),
  versionsRestore: defineRoute({
    id: 'versions.restore',
    method: 'POST',
    path: '/versions/restore',
    auth: 'root',
    request: { body: restoreVersionBodySchema, query: expectHeadQuerySchema },
    response: headMoveSchema,
  }),
  forksCreate: defineRoute({
    id: 'forks.create',
    method: 'POST',
    path: '/versions/forks',
    auth: 'token',
    request: { body: createForkBodySchema },
    response: forkSchema,
    successStatus: 201,
  }),
  forksList: defineRoute({
    id: 'forks.list',
    method: 'GET',
    path: '/versions/forks',
    auth: 'token',
    response: v.object({ items: v.array(forkSchema) }),
  }),
  forksPromote: defineRoute({
    id: 'forks.promote',
    method: 'POST',
    path: '/versions/forks/{name}/promote',
    auth: 'root',
    request: { params: nameParams, query: expectHeadQuerySchema },
    response: headMoveSchema,
  }),
  forksAbandon: defineRoute({
    id: 'forks.abandon',
    method: 'DELETE',
    path: '/versions/forks/{name}',
    auth: 'root',
    request: { params: nameParams },
    response: v.object({ deleted: v.literal(true), name: v.string() }),
  }),
  versionsHistory: defineRoute({
    id: 'versions.history',
    method: 'GET',
    path: '/versions/history/{path*}',
    auth: 'token',
    request: { params: filePathParamsSchema },
    response: historySchema,
  }),
  versionsRestorePath: defineRoute({
    id: 'versions.restore_path',
    method: 'POST',
    path: '/versions/restore/{path*}',
    auth: 'root',
    request: { params: filePathParamsSchema, body: restorePathBodySchema },
    response: changeResultSchema,
  }),
} as const
