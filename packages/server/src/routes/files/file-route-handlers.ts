import type { Auth } from '@svcdb/auth'
import type { Context } from 'hono'
import { routes } from '@svcdb/contract'
import type { Database, TreeView, Workspace } from '@svcdb/engine'
import { normalizePath } from '@svcdb/engine'
import { changeResultView, deletedEntryView, writeResultView } from '../../dto/entry-views'
import { sendView } from '../../dto/send-view'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { ARCHIVE_VERSION_HEADER } from '../versions/archive-response'
import { requestBody } from '../versions/request-body'
import { accessOf, allow, allowWrite, entryExists } from './file-access'
import { answerRead } from './file-read'
import type { ReadQuery } from './read-source'
import { queryRouteHandler } from './query-route'
import { rawFilePath } from './raw-path'
import { allowSubtree } from './subtree-access'
import { typedUpload } from './upload-body'

/** What the file routes use. */
export interface FileRoutesContext {
  db: Database
  auth: Auth
}

/** HEAD or the named fork. */
function workspace(db: Database, fork: string | undefined): Workspace {
  return fork === undefined ? db : db.fork(fork)
}

/**
 * Where a read looks: a snapshot, a version, or the latest version of a fork or HEAD, pinned,
 * so the headers (ETag, length) and the bytes sent after them describe the same file.
 */
function readSource(
  db: Database,
  query: { fork?: string | undefined; snapshot?: string | undefined; version?: string | undefined },
): TreeView {
  if (query.snapshot !== undefined) return db.at({ snapshot: query.snapshot })
  if (query.version !== undefined) return db.at(query.version)
  return workspace(db, query.fork).view()
}

/** Files, directories and symlinks (DESIGN §7.1), every call checked against the caller's permissions. */
export function fileRouteHandlers(ctx: FileRoutesContext): RouteHandler[] {
  const { db, auth } = ctx
  return [
    queryRouteHandler(ctx),
    handleRoute(routes.filesWrite, async (c, { query }) => {
      const path = normalizePath(rawFilePath(c, '/files/'))
      const access = await accessOf(c, auth)
      const target = workspace(db, query.fork)
      const ifNoneMatch = c.req.header('if-none-match')
      const createOnly = ifNoneMatch?.trim() === '*'
      if (createOnly) {
        const present = await entryExists(target, path)
        // A create-only write to a path the caller can see fails its precondition whatever the
        // caller's update right; one it cannot see stays a 404 (nothing is revealed).
        if (present && access.allows(path, 'read'))
          throw new ServerError('PRECONDITION_FAILED', `${path} already exists`)
        allow(access, path, present ? 'update' : 'create')
      } else await allowWrite(access, target, path)
      const upload = await typedUpload(requestBody(c), c.req.header('content-type'), path)
      const ifMatch = c.req.header('if-match')
      const written = await target.writeFile(path, upload.data, {
        contentType: upload.contentType,
        signal: c.req.raw.signal,
        ...(ifMatch === undefined ? {} : { ifMatch }),
        ...(createOnly ? { ifNoneMatch: '*' as const } : {}),
      })
      return sendView(c, routes.filesWrite, writeResultView(written), written.created ? 201 : 200)
    }),
    handleRoute(routes.filesRead, async (c, { query }) => {
      const path = normalizePath(rawFilePath(c, '/files/'))
      const source = readSource(db, query)
      return namingVersion(c, source.version, async () =>
        answerRead(c, source, await accessOf(c, auth), path, query as ReadQuery, false),
      )
    }),
    handleRoute(routes.filesHead, async (c, { query }) => {
      const path = normalizePath(rawFilePath(c, '/files/'))
      const source = readSource(db, query)
      return namingVersion(c, source.version, async () =>
        answerRead(c, source, await accessOf(c, auth), path, query as ReadQuery, true),
      )
    }),
    handleRoute(routes.filesDelete, async (c, { query }) => {
      const path = normalizePath(rawFilePath(c, '/files/'))
      const target = workspace(db, query.fork)
      await allowSubtree(await accessOf(c, auth), target.view(), {
        path,
        operations: ['delete'],
      })
      const result = await target.delete(path, { recursive: query.recursive })
      return sendView(c, routes.filesDelete, deletedEntryView(result), 200)
    }),
    handleRoute(routes.filesMkdir, async (c, { query, body }) => {
      const path = normalizePath(body.path)
      allow(await accessOf(c, auth), path, 'create')
      const result = await workspace(db, query.fork).mkdir(path)
      return sendView(c, routes.filesMkdir, changeResultView(result), 201)
    }),
    handleRoute(routes.filesMove, async (c, { query, body }) => {
      const from = normalizePath(body.from)
      const to = normalizePath(body.to)
      const access = await accessOf(c, auth)
      const target = workspace(db, query.fork)
      // Moving data out from under its rules would show it to whoever may read the new place.
      await allowSubtree(
        access,
        target.view(),
        { path: from, operations: ['read', 'delete'] },
        { path: to, operations: ['create'] },
      )
      const result = await target.move(from, to)
      return sendView(c, routes.filesMove, changeResultView(result), 200)
    }),
    handleRoute(routes.filesCopy, async (c, { query, body }) => {
      const destination = normalizePath(body.destination)
      const access = await accessOf(c, auth)
      const target = workspace(db, query.fork)
      const items = []
      let version = target.head()
      for (const raw of body.paths) {
        const from = normalizePath(raw)
        const name = from.slice(from.lastIndexOf('/') + 1)
        const to = destination === '/' ? `/${name}` : `${destination}/${name}`
        await allowSubtree(
          access,
          target.view(),
          { path: from, operations: ['read'] },
          { path: to, operations: ['create'] },
        )
        const result = await target.copy(from, to)
        version = result.version
        items.push(changeResultView(result))
      }
      return sendView(c, routes.filesCopy, { items, version }, 200)
    }),
    handleRoute(routes.linksWrite, async (c, { query, body }) => {
      const path = normalizePath(rawFilePath(c, '/links/'))
      const access = await accessOf(c, auth)
      const target = workspace(db, query.fork)
      allow(access, path, (await entryExists(target, path)) ? 'update' : 'create')
      const result = await target.symlink(path, body.target)
      return sendView(c, routes.linksWrite, changeResultView(result), 200)
    }),
  ]
}

/**
 * Answers with the version read named in `svcdb-version`, so a puller (a peer with a key that
 * may only read) knows what it saw; a refusal or error names none, so it tells a caller
 * nothing about versions it may not read.
 */
async function namingVersion(
  c: Context<AppEnv>,
  version: string,
  answer: () => Promise<Response>,
): Promise<Response> {
  c.header(ARCHIVE_VERSION_HEADER, version)
  try {
    return await answer()
  } catch (err) {
    c.header(ARCHIVE_VERSION_HEADER, undefined)
    throw err
  }
}
