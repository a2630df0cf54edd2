import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import { withAuthErrors } from '../../auth/auth-error-translation'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { callerOf } from './caller'
import { clientAddress } from './client-address'
import { createKeyInput } from './identity-inputs'
import {
  accessGrantView,
  adminKeyView,
  createdAdminKeyView,
  createdKeyView,
  keyView,
  revokedKeyView,
  tokenGrantView,
} from './identity-views'
import { whoamiRouteHandler } from './whoami-route-handler'

/** What the identity routes use. */
export interface IdentityRoutesContext {
  auth: Auth
}

/**
 * `/auth/*`: the four token-obtaining routes (no credential), administrative keys (root) and
 * self-service keys (any caller).
 */
export function authRouteHandlers(ctx: IdentityRoutesContext): RouteHandler[] {
  const { auth } = ctx
  const handlers: RouteHandler[] = [
    handleRoute(routes.authToken, async (c, { body }) => {
      return c.json(tokenGrantView(await auth.exchangeApiKey(body.api_key)), 200)
    }),
    // Always the same 200 answer whether or not the account exists (spec); 429 when limited,
    // per client (remote address), in all, or per address.
    handleRoute(routes.authMagicLink, async (c, { body }) => {
      const { message } = await auth.requestMagicLink(body.email, clientAddress(c))
      return c.json({ message }, 200)
    }),
    handleRoute(routes.authMagicLinkVerify, async (c, { query }) => {
      return c.json(accessGrantView(await auth.verifyMagicLink(query.code)), 200)
    }),
    handleRoute(routes.authRefresh, async (c, { body }) => {
      return c.json(tokenGrantView(await auth.refresh(body.refresh_token)), 200)
    }),
    handleRoute(routes.authAdminKeysCreate, async (c, { body }) => {
      const input = body.user_id === undefined ? {} : { userId: body.user_id }
      return c.json(createdAdminKeyView(await auth.keys.createAdmin(callerOf(c), input)), 201)
    }),
    handleRoute(routes.authAdminKeysList, async (c) => {
      const keys = await auth.keys.listAdmin(callerOf(c))
      return c.json({ items: keys.map(adminKeyView) }, 200)
    }),
    handleRoute(routes.authAdminKeysRevoke, async (c, { params }) => {
      return c.json(revokedKeyView(await auth.keys.revokeAdmin(callerOf(c), params.key_id)), 200)
    }),
    handleRoute(routes.authKeysCreate, async (c, { body }) => {
      return c.json(createdKeyView(await auth.keys.create(callerOf(c), createKeyInput(body))), 201)
    }),
    // A bare array, as the spec shows (DESIGN §10); revoked keys are left out.
    handleRoute(routes.authKeysList, async (c) => {
      return c.json((await auth.keys.list(callerOf(c))).map(keyView), 200)
    }),
    handleRoute(routes.authKeysRevoke, async (c, { params }) => {
      return c.json(revokedKeyView(await auth.keys.revoke(callerOf(c), params.key_id)), 200)
    }),
    whoamiRouteHandler(ctx),
  ]
  return handlers.map(withAuthErrors)
}
