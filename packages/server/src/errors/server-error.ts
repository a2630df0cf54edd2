import type { ErrorCode, ValidationIssue } from '@svcdb/contract'

/** Options of a {@link ServerError}. */
export interface ServerErrorOptions {
  cause?: unknown
  details?: ValidationIssue[]
  /** Headers the error answer carries (`Content-Range: bytes *\/SIZE` of a 416). */
  headers?: Record<string, string>
}

/**
 * The error handlers throw. Its `code` decides the HTTP status (through the contract's
 * `errorStatus` table) and its message is sent to the caller, so it must never hold secrets.
 */
export class ServerError extends Error {
  override readonly name = 'ServerError'
  readonly code: ErrorCode
  readonly details: ValidationIssue[] | undefined
  readonly headers: Record<string, string> | undefined

  constructor(code: ErrorCode, message: string, options: ServerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
    this.headers = options.headers
  }
}

/** True when `err` is a {@link ServerError}, optionally with the given code. Compares codes, not classes. */
export function isServerError(err: unknown, code?: ErrorCode): err is ServerError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'ServerError' &&
    typeof e.code === 'string' &&
    (code === undefined || e.code === code)
  )
}
