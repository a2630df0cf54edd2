import { isRouteAuth } from '@svcdb/contract'
import type { RouteDef } from '@svcdb/contract'
import type { Context, Hono } from 'hono'
import { ServerError } from '../errors/server-error'
import type { AppEnv } from './app-env'
import type { Authenticator } from './principal'
import type { RouteHandler, RouteInput } from './route-handler'
import { toHonoPath } from './route-path'
import { validateInput } from './validate-input'

/**
 * Checks the whole route table before anything is mounted: every route declares a valid auth
 * level, and no method + path is answered twice. A bad table is a programming error, so it
 * throws `TypeError` and the server refuses to start.
 */
export function assertRouteTable(handlers: readonly RouteHandler[]): void {
  const seen = new Set<string>()
  for (const { route } of handlers) {
    const name = `${route.method} ${route.path} (${route.id})`
    if (!isRouteAuth((route as Partial<RouteDef>).auth)) {
      throw new TypeError(`route ${name} declares no auth level; declare 'none', 'token' or 'root'`)
    }
    const key = `${route.method} ${toHonoPath(route.path)}`
    if (seen.has(key)) throw new TypeError(`route ${name} is declared twice`)
    seen.add(key)
  }
}

/** Mounts every handler on `app` behind the auth guard its route declares. */
export function mountRoutes(
  app: Hono<AppEnv>,
  handlers: readonly RouteHandler[],
  authenticator: Authenticator,
): void {
  assertRouteTable(handlers)
  for (const handler of handlers) {
    const { route } = handler
    app.on(route.method, toHonoPath(route.path), async (c) => {
      await guard(route, c, authenticator)
      const input = (await validateInput(route, c)) as RouteInput<RouteDef>
      return handler.handle(c, input)
    })
  }
}

async function guard(
  route: RouteDef,
  c: Context<AppEnv>,
  authenticator: Authenticator,
): Promise<void> {
  // `none` routes never look at credentials, so a stale token cannot break token exchange.
  if (route.auth === 'none') return
  const principal = await authenticator.authenticate(c.req.raw)
  c.set('principal', principal)
  if (principal === undefined) {
    throw new ServerError('UNAUTHORIZED', 'this route needs a Bearer access token')
  }
  if (route.auth === 'root' && !principal.isRoot) {
    throw new ServerError('FORBIDDEN', 'this route is reserved to the root user')
  }
}
