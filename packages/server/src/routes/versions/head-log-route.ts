import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import type { Context } from 'hono'
import { sendView } from '../../dto/send-view'
import { headLogView } from '../../dto/version-views'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { accessOf, allow } from '../files/file-access'

/**
 * Who moves HEAD, as the HEAD log records it: the caller's user id (`undefined` for a
 * caller without one, which the root-only routes never have).
 */
export function actorOf(c: Context<AppEnv>): { by?: string } {
  const userId = c.get('principal')?.userId
  return userId === null || userId === undefined ? {} : { by: userId }
}

/** `expect_head` of a request as the engine's option. */
export function expectHeadOf(query: { expect_head?: string | undefined }): {
  expectHead?: string
} {
  return query.expect_head === undefined ? {} : { expectHead: query.expect_head }
}

/**
 * `GET /versions/log`: the HEAD moves that replaced history, newest first. It names
 * whole-tree versions, so it takes `read` on `/` (root has it); a share link never sees it,
 * and a scoped key is answered 404 as for any path it may not read.
 */
export function headLogRoute(ctx: { db: Database; auth: Auth }): RouteHandler {
  const { db, auth } = ctx
  return handleRoute(routes.versionsLog, async (c, { query }) => {
    const access = await accessOf(c, auth)
    if (access.principal.userId === null)
      throw new ServerError('NOT_FOUND', 'not found: /versions/log')
    allow(access, '/', 'read')
    const page = await db.headLog({
      limit: query.limit,
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    })
    return sendView(c, routes.versionsLog, headLogView(page), 200)
  })
}
