import { isAuthError, ROOT_PRINCIPAL } from '@svcdb/auth'
import type { Auth } from '@svcdb/auth'
import { ServerError } from '../errors/server-error'
import type { Authenticator } from '../routing/principal'

// RFC 9110: the scheme is case-insensitive; a JWT is one run of non-space characters.
const BEARER = /^Bearer +(\S+) *$/i

/**
 * The {@link Authenticator} of `self-contained` and `file` modes: reads
 * `Authorization: Bearer <access token>` (or an API key `svc_…` in its place, with that key's
 * rules) and has `auth` verify it, which re-checks the key and the user on every request. No header means no caller (`undefined`); a malformed header
 * or a refused token answers 401 `UNAUTHORIZED`. In `disabled` mode every request is root,
 * whatever it carries.
 *
 * @example
 * const app = createApp({ authenticator: createBearerAuthenticator(auth), handlers })
 */
export function createBearerAuthenticator(auth: Auth): Authenticator {
  return {
    async authenticate(request) {
      if (auth.mode.kind === 'disabled') return ROOT_PRINCIPAL
      const header = request.headers.get('authorization')
      if (header === null) return undefined
      const token = BEARER.exec(header)?.[1]
      if (token === undefined) {
        throw new ServerError(
          'UNAUTHORIZED',
          'the Authorization header must be "Bearer <access token or API key>"',
        )
      }
      try {
        return await auth.authenticate(token)
      } catch (err) {
        if (!isAuthError(err, 'INVALID_CREDENTIAL')) throw err
        throw new ServerError('UNAUTHORIZED', err.message, { cause: err })
      }
    },
  }
}
