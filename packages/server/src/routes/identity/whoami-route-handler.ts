import { routes } from '@svcdb/contract'
import { whoamiView } from '../../dto/identity-views'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import type { IdentityRoutesContext } from './auth-route-handlers'
import { callerOf } from './caller'

/**
 * `GET /auth/whoami` (beyond the spec): who the caller's credential speaks for, with the
 * rules that restrict it, so a script or the CLI can check a key before using it.
 */
export function whoamiRouteHandler(ctx: IdentityRoutesContext): RouteHandler {
  return handleRoute(routes.authWhoami, async (c) => {
    const caller = callerOf(c)
    // A share key has no user; its rules are its only authority.
    const user = caller.userId === null ? undefined : await ctx.auth.users.get(caller.userId)
    return sendView(c, routes.authWhoami, whoamiView(caller, user), 200)
  })
}
