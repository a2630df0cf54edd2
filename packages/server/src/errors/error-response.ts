import { errorStatus, isErrorCode } from '@svcdb/contract'
import type { ErrorBody, ErrorCode } from '@svcdb/contract'
import { HTTPException } from 'hono/http-exception'
import { wireCodeOf, wireMessageOf } from './library-codes'
import { isServerError } from './server-error'

/** An error turned into what goes on the wire. */
export interface ErrorResponse {
  status: number
  body: ErrorBody
  /** True when the error was not expected and deserves a log line with its stack. */
  unexpected: boolean
  /** Extra headers (`Retry-After` of a rate limit). */
  headers?: Record<string, string>
}

const codeForStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'RATE_LIMITED',
}

/**
 * The one place where errors become HTTP answers. Errors carrying a known `code` (ours or a
 * library's, compared by code) keep it; Hono's HTTP exceptions keep their status; anything
 * else is `INTERNAL` with a generic message, so no stack or internals reach the caller.
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (isServerError(err)) {
    const error: ErrorBody['error'] = { code: err.code, message: err.message }
    if (err.details !== undefined) error.details = err.details
    const response: ErrorResponse = {
      status: errorStatus[err.code],
      body: { error },
      unexpected: err.code === 'INTERNAL',
    }
    if (err.headers !== undefined) response.headers = err.headers
    return response
  }
  if (err instanceof HTTPException) {
    const code = codeForStatus[err.status] ?? 'INTERNAL'
    const message = err.message || `request failed with status ${err.status}`
    return {
      status: errorStatus[code],
      body: { error: { code, message } },
      unexpected: code === 'INTERNAL',
    }
  }
  const coded = codedError(err)
  if (coded !== undefined) {
    const response: ErrorResponse = {
      status: errorStatus[coded.code],
      body: { error: coded },
      unexpected: coded.code === 'INTERNAL',
    }
    const retryAfterMs = (err as { retryAfterMs?: unknown }).retryAfterMs
    if (coded.code === 'RATE_LIMITED' && typeof retryAfterMs === 'number')
      response.headers = { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }
    return response
  }
  return {
    status: 500,
    body: { error: { code: 'INTERNAL', message: 'internal server error' } },
    unexpected: true,
  }
}

/**
 * Library errors (EngineError, AuthError…) whose code is also a wire code pass through as is;
 * the others are translated, and some messages too (see library-codes.ts).
 */
function codedError(err: unknown): { code: ErrorCode; message: string } | undefined {
  if (!(err instanceof Error) || err.message === '') return undefined
  const raw = (err as { code?: unknown }).code
  const code = wireCodeOf(err.name, raw) ?? raw
  if (!isErrorCode(code)) return undefined
  return { code, message: wireMessageOf(err.name, raw, err.message) }
}
