import { committedContentType } from './committed-content-type'
import type { Access, Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { CHUNK_SIZES, normalizePath } from '@svcdb/engine'
import { writeResultView } from '../../dto/entry-views'
import { sendView } from '../../dto/send-view'
import { ServerError } from '../../errors/server-error'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { accessOf, allowWrite } from '../files/file-access'
import { requestBody } from '../versions/request-body'
import { commitManyHandler } from './commit-many-handler'
import { assertPossessed, createChunkPossession, possessionOwner } from './chunk-possession'
import type { ChunkPossession } from './chunk-possession'

/** Reads a chunk body, refusing one larger than the chunker's maximum before buffering it. */
async function chunkBody(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let size = 0
  for await (const part of source) {
    size += part.length
    if (size > CHUNK_SIZES.maxSize)
      throw new ServerError('PAYLOAD_TOO_LARGE', `a chunk is at most ${CHUNK_SIZES.maxSize} bytes`)
    parts.push(part)
  }
  return Buffer.concat(parts)
}

/** Throws unless the caller may create or update somewhere (chunks serve only writes). */
function assertMayUpload(access: Access): void {
  if (!access.mayWriteSomewhere)
    throw new ServerError('FORBIDDEN', 'uploads need create or update permission on some path')
}

/** `/uploads/*`: check, send missing chunks, commit one file or many (DESIGN §7.1). */
export function uploadRouteHandlers(ctx: {
  db: Database
  auth: Auth
  possession?: ChunkPossession
}): RouteHandler[] {
  const { db, auth } = ctx
  const possession = ctx.possession ?? createChunkPossession()
  return [
    handleRoute(routes.uploadsCheck, async (c, { body }) => {
      const access = await accessOf(c, auth)
      assertMayUpload(access)
      if (access.principal.isRoot)
        return sendView(
          c,
          routes.uploadsCheck,
          { missing: await db.missingChunks(body.hashes) },
          200,
        )
      // Anyone else learns only about the chunks it sent itself: whether some content is
      // stored elsewhere in the database is not theirs to know.
      const owner = possessionOwner(access.principal)
      const held = body.hashes.filter((h) => possession.sizeOf(owner, h) !== undefined)
      const gone = new Set(await db.missingChunks(held))
      const missing = body.hashes
        .map((h) => h.toLowerCase())
        .filter((h) => gone.has(h) || possession.sizeOf(owner, h) === undefined)
      return sendView(c, routes.uploadsCheck, { missing: [...new Set(missing)] }, 200)
    }),
    handleRoute(routes.uploadsChunk, async (c, { params }) => {
      const access = await accessOf(c, auth)
      assertMayUpload(access)
      const declared = Number(c.req.header('content-length'))
      if (Number.isFinite(declared) && declared > CHUNK_SIZES.maxSize)
        throw new ServerError(
          'PAYLOAD_TOO_LARGE',
          `a chunk is at most ${CHUNK_SIZES.maxSize} bytes`,
        )
      const bytes = await chunkBody(requestBody(c))
      const { isNew } = await db.putChunk(params.hash, bytes)
      const hash = params.hash.toLowerCase()
      const firstFromCaller = possession.record(
        possessionOwner(access.principal),
        hash,
        bytes.length,
      )
      // `stored` says whether the chunk is new to the caller (root: to the database), so that
      // sending a guessed chunk never confirms that someone else stored it.
      const stored = access.principal.isRoot ? isNew : firstFromCaller
      return sendView(c, routes.uploadsChunk, { hash, stored }, stored ? 201 : 200)
    }),
    handleRoute(routes.uploadsCommit, async (c, { query, body }) => {
      const path = normalizePath(body.path)
      const access = await accessOf(c, auth)
      const target = query.fork === undefined ? db : db.fork(query.fork)
      await allowWrite(access, target, path)
      if (!access.principal.isRoot)
        assertPossessed(possession, possessionOwner(access.principal), body.chunks)
      const written = await target.writeChunks(path, body.chunks, {
        contentType: await committedContentType(db, path, body),
        ...(body.hash === undefined ? {} : { contentHash: body.hash }),
      })
      const status = written.created ? 201 : 200
      return sendView(c, routes.uploadsCommit, writeResultView(written), status)
    }),
    commitManyHandler({ db, auth, possession }),
  ]
}
