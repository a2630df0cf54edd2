import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { CHUNK_SIZES, normalizePath } from '@svcdb/engine'
import { ServerError } from '../../errors/server-error'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { accessOf, allow } from '../files/file-access'
import { requestBody } from '../versions/request-body'

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

/** `/uploads/*`: check, send missing chunks, commit (DESIGN §7.1). */
export function uploadRouteHandlers(ctx: { db: Database; auth: Auth }): RouteHandler[] {
  const { db, auth } = ctx
  return [
    handleRoute(routes.uploadsCheck, async (c, { body }) => {
      return c.json({ missing: await db.missingChunks(body.hashes) }, 200)
    }),
    handleRoute(routes.uploadsChunk, async (c, { params }) => {
      const declared = Number(c.req.header('content-length'))
      if (Number.isFinite(declared) && declared > CHUNK_SIZES.maxSize)
        throw new ServerError(
          'PAYLOAD_TOO_LARGE',
          `a chunk is at most ${CHUNK_SIZES.maxSize} bytes`,
        )
      const { isNew } = await db.putChunk(params.hash, await chunkBody(requestBody(c)))
      return c.json({ hash: params.hash.toLowerCase(), stored: isNew }, isNew ? 201 : 200)
    }),
    handleRoute(routes.uploadsCommit, async (c, { query, body }) => {
      const path = normalizePath(body.path)
      const access = await accessOf(c, auth)
      const target = query.fork === undefined ? db : db.fork(query.fork)
      const exists = await target.stat(path, { follow: false }).then(
        () => true,
        () => false,
      )
      allow(access, path, exists ? 'update' : 'create')
      const written = await target.writeChunks(path, body.chunks, {
        contentType: body.content_type ?? 'application/octet-stream',
        ...(body.hash === undefined ? {} : { contentHash: body.hash }),
      })
      return c.json(
        {
          path: written.path,
          name: written.name,
          entry_type: 'file' as const,
          size: written.size,
          content_type: written.contentType,
          hash: written.hash,
          version: written.version,
          created_at: written.createdAt,
          updated_at: written.updatedAt,
        },
        written.created ? 201 : 200,
      )
    }),
  ]
}
