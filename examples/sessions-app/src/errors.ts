/** Why a request or a dispatch failed. Each code has one HTTP status (see `error-response.ts`). */
export type SessionsAppErrorCode =
  /** The request body is not JSON, or a channel name the hub refuses. */
  | 'BAD_REQUEST'
  /** A body, query or path parameter does not match its schema; `details` lists each issue. */
  | 'VALIDATION_FAILED'
  /** No session with that id, or no such route. */
  | 'NOT_FOUND'
  /** A session with that id already exists. */
  | 'CONFLICT'
  /** The request body is larger than the app accepts. */
  | 'PAYLOAD_TOO_LARGE'
  /** A file of the collection does not hold a valid record (written by hand, say). */
  | 'CORRUPT_RECORD'
  /** The dispatch function threw; the session stays undispatched and is retried later. */
  | 'DISPATCH_FAILED'
  /** svcdb answered with an error the app cannot turn into anything better. */
  | 'UPSTREAM_FAILED'
  /** svcdb could not be reached. */
  | 'UPSTREAM_UNAVAILABLE'
  /** The environment does not configure the app (a variable missing or malformed). */
  | 'INVALID_CONFIG'
  /** The app is shutting down. */
  | 'CLOSED'
  /** Anything unexpected. */
  | 'INTERNAL'

/** One problem found while validating a request, located as `body.x`, `query.x` or `params.x`. */
export interface ValidationIssue {
  path: string
  message: string
}

/** Options of a {@link SessionsAppError}. */
export interface SessionsAppErrorOptions {
  details?: ValidationIssue[]
  cause?: unknown
}

/** Every failure of the sessions app. Match on `code` with {@link isSessionsAppError}. */
export class SessionsAppError extends Error {
  override readonly name = 'SessionsAppError'
  readonly code: SessionsAppErrorCode
  readonly details: ValidationIssue[] | undefined

  constructor(code: SessionsAppErrorCode, message: string, options: SessionsAppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }
}

/** True when `err` is a {@link SessionsAppError}, optionally with the given code. */
export function isSessionsAppError(
  err: unknown,
  code?: SessionsAppErrorCode,
): err is SessionsAppError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'SessionsAppError' &&
    typeof e.code === 'string' &&
    (code === undefined || e.code === code)
  )
}
