import { committedContentType } from './committed-content-type'
import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { normalizePath } from '@svcdb/engine'
import { writeResultView } from '../../dto/entry-views'
import type { WriteResultView } from '../../dto/entry-views'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { accessOf, allowWrite } from '../files/file-access'
import { assertPossessed, possessionOwner } from './chunk-possession'
import type { ChunkPossession } from './chunk-possession'

/**
 * `POST /uploads/commit-many`: many files made of chunks the caller sent, committed as one
 * version (`Workspace.writeFiles`, one `entries_created` event). Every path's right and every
 * chunk's possession is checked before anything is written, and the write is atomic: one
 * refused or failing file refuses the whole request and stores nothing.
 */
export function commitManyHandler(ctx: {
  db: Database
  auth: Auth
  possession: ChunkPossession
}): RouteHandler {
  const { db, auth, possession } = ctx
  return handleRoute(routes.uploadsCommitMany, async (c, { query, body }) => {
    const access = await accessOf(c, auth)
    const target = query.fork === undefined ? db : db.fork(query.fork)
    const paths = body.files.map((file) => normalizePath(file.path))
    for (const path of paths) await allowWrite(access, target, path)
    if (!access.principal.isRoot) {
      const owner = possessionOwner(access.principal)
      for (const file of body.files) assertPossessed(possession, owner, file.chunks)
    }
    const files: WriteResultView[] = []
    const contentTypes: string[] = []
    for (const [i, file] of body.files.entries())
      contentTypes.push(await committedContentType(db, paths[i] as string, file))
    const result = await target.writeFiles(
      body.files.map((file, i) => ({
        path: paths[i] as string,
        chunks: file.chunks,
        contentType: contentTypes[i] as string,
        ...(file.hash === undefined ? {} : { contentHash: file.hash }),
        ...(file.metadata === undefined ? {} : { metadata: file.metadata }),
      })),
      {
        // One batch, so one version: the body's 1 MB bounds what the batch holds.
        maxBatchFiles: body.files.length,
        maxBatchBytes: Number.MAX_SAFE_INTEGER,
        onWritten: (file) => files.push(writeResultView(file)),
      },
    )
    return sendView(c, routes.uploadsCommitMany, { version: result.version, files }, 200)
  })
}
