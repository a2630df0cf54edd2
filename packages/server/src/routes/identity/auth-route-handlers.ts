import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import { createKeyInput } from '../../dto/identity-inputs'
import {
  accessGrantView,
  adminKeyView,
  createdAdminKeyView,
  createdKeyView,
  keyView,
  revokedKeyView,
  tokenGrantView,
} from '../../dto/identity-views'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { callerOf } from './caller'
import { clientAddress } from './client-address'
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
  return [
    handleRoute(routes.authToken, async (c, { body }) => {
      const grant = await auth.exchangeApiKey(body.api_key)
      return sendView(c, routes.authToken, tokenGrantView(grant), 200)
    }),
    // Always the same 200 answer whether or not the account exists (spec); 429 when limited,
    // per client (remote address), in all, or per address.
    handleRoute(routes.authMagicLink, async (c, { body }) => {
      const { message } = await auth.requestMagicLink(body.email, clientAddress(c))
      return sendView(c, routes.authMagicLink, { message }, 200)
    }),
    handleRoute(routes.authMagicLinkVerify, async (c, { query }) => {
      const grant = await auth.verifyMagicLink(query.code)
      return sendView(c, routes.authMagicLinkVerify, accessGrantView(grant), 200)
    }),
    handleRoute(routes.authRefresh, async (c, { body }) => {
      const grant = await auth.refresh(body.refresh_token)
      return sendView(c, routes.authRefresh, tokenGrantView(grant), 200)
    }),
    handleRoute(routes.authAdminKeysCreate, async (c, { body }) => {
      const input = body.user_id === undefined ? {} : { userId: body.user_id }
      const key = await auth.keys.createAdmin(callerOf(c), input)
      return sendView(c, routes.authAdminKeysCreate, createdAdminKeyView(key), 201)
    }),
    handleRoute(routes.authAdminKeysList, async (c) => {
      const keys = await auth.keys.listAdmin(callerOf(c))
      return sendView(c, routes.authAdminKeysList, { items: keys.map(adminKeyView) }, 200)
    }),
    handleRoute(routes.authAdminKeysRevoke, async (c, { params }) => {
      const revoked = await auth.keys.revokeAdmin(callerOf(c), params.key_id)
      return sendView(c, routes.authAdminKeysRevoke, revokedKeyView(revoked), 200)
    }),
    handleRoute(routes.authKeysCreate, async (c, { body }) => {
      const key = await auth.keys.create(callerOf(c), createKeyInput(body))
      return sendView(c, routes.authKeysCreate, createdKeyView(key), 201)
    }),
    // A bare array, as the spec shows (DESIGN §10); revoked keys are left out.
    handleRoute(routes.authKeysList, async (c) => {
      const keys = await auth.keys.list(callerOf(c))
      return sendView(c, routes.authKeysList, keys.map(keyView), 200)
    }),
    handleRoute(routes.authKeysRevoke, async (c, { params }) => {
      const revoked = await auth.keys.revoke(callerOf(c), params.key_id)
      return sendView(c, routes.authKeysRevoke, revokedKeyView(revoked), 200)
    }),
    whoamiRouteHandler(ctx),
  ]
}
