import { errorBodySchema } from '@svcdb/contract'
import type { ErrorCode, ValidationIssue } from '@svcdb/contract'
import * as v from 'valibot'

/**
 * What went wrong: a wire error code sent by the server, or one of the client's own:
 * `NETWORK_ERROR` (no answer), `ABORTED` (the caller's signal fired), `INVALID_RESPONSE`
 * (an answer that does not follow the contract), `INVALID_JSON` (`files.readJson` read a file
 * whose bytes are not JSON).
 */
export type ClientErrorCode =
  ErrorCode | 'NETWORK_ERROR' | 'ABORTED' | 'INVALID_RESPONSE' | 'INVALID_JSON'

/** Options of a {@link ClientError}. */
export interface ClientErrorOptions {
  /** HTTP status; 0 when no answer arrived. */
  status: number
  details?: ValidationIssue[]
  cause?: unknown
}

/** Every failure of the client. Match on `code` with {@link isClientError}. */
export class ClientError extends Error {
  override readonly name = 'ClientError'
  readonly code: ClientErrorCode
  readonly status: number
  readonly details: ValidationIssue[] | undefined

  constructor(code: ClientErrorCode, message: string, options: ClientErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = options.status
    this.details = options.details
  }
}

/** True when `err` is a {@link ClientError}, optionally with the given code. */
export function isClientError(err: unknown, code?: ClientErrorCode): err is ClientError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'ClientError' &&
    typeof e.code === 'string' &&
    (code === undefined || e.code === code)
  )
}

/**
 * Turns an error answer into a {@link ClientError}: the server's code and message when the
 * body follows the contract, else `INVALID_RESPONSE` quoting the status.
 */
export function clientErrorFromBody(status: number, bodyText: string): ClientError {
  let parsed: unknown
  try {
    parsed = JSON.parse(bodyText)
  } catch {
    parsed = undefined
  }
  const result = v.safeParse(errorBodySchema, parsed)
  if (!result.success) {
    return new ClientError('INVALID_RESPONSE', `server answered ${status} without an error body`, {
      status,
    })
  }
  const { code, message, details } = result.output.error
  return new ClientError(code, message, details === undefined ? { status } : { status, details })
}
