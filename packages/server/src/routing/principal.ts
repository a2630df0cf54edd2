/** The nil UUID: the root user's id (spec). */
export const ROOT_USER_ID = '00000000-0000-0000-0000-000000000000'

/** Who is calling, as established by an {@link Authenticator}. */
export interface Principal {
  /** User id, or `null` for a share key (its rules are its only authority). */
  userId: string | null
  /** The API key the token was minted from, when there is one. */
  keyId?: string
  isRoot: boolean
}

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
  authenticate: () => Promise.resolve({ userId: ROOT_USER_ID, isRoot: true }),
}
