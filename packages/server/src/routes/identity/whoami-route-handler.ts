import type { Principal, User } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { WhoamiView } from '@svcdb/contract'
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
    return c.json(whoamiView(caller, user), 200)
  })
}

/** The caller in wire form; `null` where the credential has no such thing. */
export function whoamiView(caller: Principal, user: User | undefined): WhoamiView {
  return {
    user_id: caller.userId,
    username: user?.username ?? null,
    email: user?.email ?? null,
    is_root: caller.isRoot,
    key_id: caller.keyId ?? null,
    scoped: caller.scoped,
    rules: caller.rules.map((rule) => ({ ...rule })),
  }
}
