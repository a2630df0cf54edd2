import { ROOT_PRINCIPAL } from '@svcdb/auth'
import type { Principal } from '@svcdb/auth'

export { ROOT_USER_ID } from '@svcdb/auth'
export type { Principal } from '@svcdb/auth'

/**
 * Establishes the caller of a request from its headers. Returns `undefined` when the request
 * carries no credential, and throws a `ServerError` with code `UNAUTHORIZED` for a bad one.
 */
export interface Authenticator {
  authenticate(request: Request): Promise<Principal | undefined>
}

/**
 * The `--auth disabled` mode: every request is treated as authenticated, as root (spec).
 */
export const disabledAuthenticator: Authenticator = {
  authenticate: () => Promise.resolve(ROOT_PRINCIPAL),
}
