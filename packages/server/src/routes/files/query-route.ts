import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database, TreeView } from '@svcdb/engine'
import { normalizePath } from '@svcdb/engine'
import { queryPageView } from '../../dto/entry-views'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { accessOf, allow } from './file-access'

/**
 * `POST /files/query` (DESIGN §3.8): the documents of a directory the caller may list,
 * answered from HEAD, a fork, a snapshot or a version. Documents the caller may not read
 * are left out while the page is filled, so a page is never short for that reason.
 */
export function queryRouteHandler(ctx: { db: Database; auth: Auth }): RouteHandler {
  return handleRoute(routes.filesQuery, async (c, { body }) => {
    const access = await accessOf(c, ctx.auth)
    const dir = normalizePath(body.path)
    allow(access, dir, 'list')
    const source: TreeView =
      body.snapshot !== undefined
        ? ctx.db.at({ snapshot: body.snapshot })
        : body.version !== undefined
          ? ctx.db.at(body.version)
          : (body.fork === undefined ? ctx.db : ctx.db.fork(body.fork)).view()
    const orderBy =
      body.order_by === undefined
        ? undefined
        : typeof body.order_by === 'string'
          ? body.order_by
          : {
              field: body.order_by.field,
              ...(body.order_by.direction === undefined
                ? {}
                : { direction: body.order_by.direction }),
            }
    const result = await source.query({
      path: dir,
      signal: c.req.raw.signal,
      canRead: (path) => access.allows(path, 'read'),
      ...(body.where === undefined ? {} : { where: body.where }),
      ...(orderBy === undefined ? {} : { orderBy }),
      ...(body.limit === undefined ? {} : { limit: body.limit }),
      ...(body.after === undefined ? {} : { after: body.after }),
    })
    const permissionsOf = access.scoped ? (path: string) => access.permissions(path) : undefined
    return sendView(c, routes.filesQuery, queryPageView(result, permissionsOf), 200)
  })
}
