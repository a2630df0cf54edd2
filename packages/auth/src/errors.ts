/** Why an auth operation failed. */
export type AuthErrorCode =
  /**
   * A key, token, refresh token or magic-link code was refused. Deliberately one code: the
   * caller never learns which part of a credential was wrong.
   */
  | 'INVALID_CREDENTIAL'
  /** The caller may not do this. */
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  /** A username, group name or id is already taken. */
  | 'CONFLICT'
  /** An input field is malformed (bad UUID, bad rule, expiry out of range…). */
  | 'INVALID_INPUT'
  /** A group queries a user field outside the safe list. */
  | 'UNSAFE_QUERY_FIELD'
  | 'RATE_LIMITED'
  /** Signing a token failed. */
  | 'TOKEN_CREATION_FAILED'

/** Options of an {@link AuthError}. */
export interface AuthErrorOptions {
  cause?: unknown
  /** For `RATE_LIMITED`: milliseconds until a new attempt may succeed. */
  retryAfterMs?: number
}

/**
 * Every failure of the auth library. Match on `code` (with {@link isAuthError}), not on the
 * class. Messages are safe to show to the caller.
 */
export class AuthError extends Error {
  override readonly name = 'AuthError'
  readonly code: AuthErrorCode
  readonly retryAfterMs: number | undefined

  constructor(code: AuthErrorCode, message: string, options: AuthErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.retryAfterMs = options.retryAfterMs
  }
}

/** True when `err` is an {@link AuthError}, optionally with the given code. */
export function isAuthError(err: unknown, code?: AuthErrorCode): err is AuthError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'AuthError' && typeof e.code === 'string' && (code === undefined || e.code === code)
  )
}
