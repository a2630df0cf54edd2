import { MAX_IMPORT_BYTES, routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { sendView } from '../../dto/send-view'
import { importView, promotedView } from '../../dto/version-views'
import { ServerError } from '../../errors/server-error'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { archiveResponse } from './archive-response'
import { actorOf, expectHeadOf } from './head-log-route'
import { requestBody } from './request-body'
import { skippedChunks } from './skip-chunks'
import { importStaged } from './staged-import'

const HEX_HASH = /^[0-9a-fA-F]{64}$/

/** `/versions/*` (root): exports and patches stream out, archives stream in, promote. */
export function versionRouteHandlers(ctx: { db: Database }): RouteHandler[] {
  const { db } = ctx
  return [
    handleRoute(routes.versionsExport, async (c, { query }) => {
      // Resolved before the first byte: errors must be JSON answers, not a cut stream.
      let version: string
      if (query.hash !== undefined) {
        version = (await db.at(query.hash).stat('/')).hash
      } else if (query.snapshot !== undefined && query.snapshot !== 'HEAD') {
        version = (await db.snapshots.get(query.snapshot)).version
      } else {
        version = db.head()
      }
      const skipChunks = await skippedChunks(c)
      const archive = db.exportArchive({
        version,
        signal: c.req.raw.signal,
        ...(skipChunks === undefined ? {} : { skipChunks }),
      })
      return archiveResponse(c, archive, `export-${version.slice(0, 12)}.svcdb`, version)
    }),
    handleRoute(routes.versionsDiff, async (c, { query }) => {
      const from = await resolve(db, query.from)
      const to = query.to === undefined ? db.head() : await resolve(db, query.to)
      const skipChunks = await skippedChunks(c)
      const patch = db.diffArchive({
        from,
        to,
        signal: c.req.raw.signal,
        ...(skipChunks === undefined ? {} : { skipChunks }),
      })
      return archiveResponse(c, patch, `patch-${to.slice(0, 12)}.svcdb`, to)
    }),
    handleRoute(routes.versionsChunks, async (c, { query }) => {
      const to = query.to === undefined ? db.head() : await resolve(db, query.to)
      const from = query.from === undefined ? undefined : await resolve(db, query.from)
      const ids = db.archiveChunkIds({
        to,
        signal: c.req.raw.signal,
        ...(from === undefined ? {} : { from }),
      })
      return archiveResponse(c, ids, `chunks-${to.slice(0, 12)}.bin`, to)
    }),
    handleRoute(routes.versionsImport, async (c, { query }) => {
      const options = {
        force: query.force,
        promote: query.promote,
        signal: c.req.raw.signal,
        ...expectHeadOf(query),
        ...actorOf(c),
      }
      if (query.from !== undefined) {
        const staged = { path: query.from, fork: query.fork }
        const result = await importStaged(c, db, staged, options)
        return sendView(c, routes.versionsImport, importView(result), 200)
      }
      if (query.fork !== undefined) {
        throw new ServerError(
          'BAD_REQUEST',
          'fork= names where a staged archive is: give from= too',
        )
      }
      // Counted as it streams, whatever Content-Length says; the engine's own limit stays.
      const body = requestBody(c, { maxBytes: MAX_IMPORT_BYTES, what: 'an import' })
      const result = await db.importArchive(body, { ...options, maxBytes: MAX_IMPORT_BYTES })
      return sendView(c, routes.versionsImport, importView(result), 200)
    }),
    handleRoute(routes.versionsPromote, async (c, { query }) => {
      if (!HEX_HASH.test(query.hash)) {
        throw new ServerError('BAD_REQUEST', 'hash must be a 64-digit hex version hash')
      }
      const { version } = await db.promote(query.hash, { ...expectHeadOf(query), ...actorOf(c) })
      return sendView(c, routes.versionsPromote, promotedView(version), 200)
    }),
  ]
}

/** A snapshot name, hex hash or `HEAD` (the current version), checked to name a stored version. */
async function resolve(db: Database, spec: string): Promise<string> {
  if (spec === 'HEAD' || HEX_HASH.test(spec)) return (await db.at(spec).stat('/')).hash
  return (await db.snapshots.get(spec)).version
}
