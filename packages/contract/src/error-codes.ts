import * as v from 'valibot'

/**
 * Every error code the server can answer with, in the `error.code` field of an error body.
 * The HTTP status of each code is fixed by {@link errorStatus}.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'RANGE_NOT_SATISFIABLE',
  'RATE_LIMITED',
  'CONTENT_CORRUPT',
  'INSUFFICIENT_STORAGE',
  'INTERNAL',
] as const

/** A wire error code, such as `NOT_FOUND`. */
export type ErrorCode = (typeof ERROR_CODES)[number]

/** Schema of a wire error code. */
export const errorCodeSchema = v.picklist(ERROR_CODES)

/**
 * The HTTP status that goes with each error code. The server maps codes to statuses only
 * through this table, and the client uses it to explain a status it did not expect.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  CONTENT_CORRUPT: 500,
  /** The disk holding the data is full: writes fail until space is freed; reads still work. */
  INSUFFICIENT_STORAGE: 507,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>

/** Returns true when `value` is one of {@link ERROR_CODES}. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
}
