import type { Auth } from '@svcdb/auth'
import { createApp } from '../../src/app'
import { createBearerAuthenticator } from '../../src/auth/bearer-authenticator'
import { createLogger } from '../../src/logger'
import { authRouteHandlers } from '../../src/routes/identity/auth-route-handlers'
import { groupRouteHandlers } from '../../src/routes/identity/group-route-handlers'
import { userRouteHandlers } from '../../src/routes/identity/user-route-handlers'
import type { RouteHandler } from '../../src/routing/route-handler'
import { callerOf } from './app-requests'
import type { CallOptions } from './app-requests'

/** The auth, user and group routes over `auth`. */
export function identityRoutes({ auth }: { auth: Auth }): RouteHandler[] {
  return [
    ...authRouteHandlers({ auth }),
    ...userRouteHandlers({ auth }),
    ...groupRouteHandlers({ auth }),
  ]
}

/**
 * The identity routes on `createApp` with the bearer authenticator over an `auth` the test
 * made itself (one the kit cannot bootstrap), as a function making one request.
 */
export function identityCaller(
  auth: Auth,
): (method: string, path: string, options?: CallOptions) => Promise<Response> {
  return callerOf(
    createApp({
      authenticator: createBearerAuthenticator(auth),
      handlers: identityRoutes({ auth }),
      logger: createLogger({ level: 'silent' }),
    }),
  )
}
