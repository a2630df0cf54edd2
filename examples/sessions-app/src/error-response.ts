import { isEventsError } from '@svcdb/events'
import { HTTPException } from 'hono/http-exception'
import { isSessionsAppError } from './errors'
import type { SessionsAppErrorCode, ValidationIssue } from './errors'

/** The JSON body of every error answer. `details` only for `VALIDATION_FAILED`. */
export interface ErrorBody {
  error: { code: SessionsAppErrorCode; message: string; details?: ValidationIssue[] }
}

/** An error turned into what goes on the wire. */
export interface ErrorResponse {
  status: 400 | 404 | 409 | 413 | 500 | 502 | 503
  body: ErrorBody
  /** Not a caller's mistake: worth a log line with the stack. */
  unexpected: boolean
}

/** The one mapping of error codes to HTTP statuses. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  CORRUPT_RECORD: 500,
  DISPATCH_FAILED: 500,
  INVALID_CONFIG: 500,
  INTERNAL: 500,
  UPSTREAM_FAILED: 502,
  UPSTREAM_UNAVAILABLE: 503,
  CLOSED: 503,
} as const satisfies Record<SessionsAppErrorCode, ErrorResponse['status']>

/**
 * Turns any error into an answer: our own errors keep their code, a channel name refused by
 * the hub is a `BAD_REQUEST`, anything else is `INTERNAL` with a generic message so no stack
 * or internals reach the caller.
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (isSessionsAppError(err)) {
    const error: ErrorBody['error'] = { code: err.code, message: err.message }
    if (err.details !== undefined) error.details = err.details
    const status = ERROR_STATUS[err.code]
    return { status, body: { error }, unexpected: status >= 500 }
  }
  if (isEventsError(err, 'INVALID_CHANNEL')) return answer('BAD_REQUEST', err.message, false)
  if (isEventsError(err, 'CLOSED')) return answer('CLOSED', 'the app is shutting down', false)
  // Hono raises these for what it checks itself (a body over the limit, say).
  if (err instanceof HTTPException && err.status === 413)
    return answer('PAYLOAD_TOO_LARGE', 'the request body is too large', false)
  return answer('INTERNAL', 'internal error', true)
}

function answer(code: SessionsAppErrorCode, message: string, unexpected: boolean): ErrorResponse {
  return { status: ERROR_STATUS[code], body: { error: { code, message } }, unexpected }
}
