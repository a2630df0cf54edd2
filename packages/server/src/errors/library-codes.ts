import type { ErrorCode } from '@svcdb/contract'
import { authMessageForWire } from './wire-field-names'

/**
 * Codes of the libraries' errors (EngineError, AuthError, SchedulerError, EventsError) that
 * are not wire codes themselves, and the wire code each is answered with. Library errors are
 * recognised by `name` + `code`, never `instanceof` (two copies of a package would break it).
 */
const LIBRARY_CODES: Record<string, Record<string, ErrorCode>> = {
  EngineError: {
    INVALID_PATH: 'BAD_REQUEST',
    INVALID_HASH: 'BAD_REQUEST',
    INVALID_NAME: 'BAD_REQUEST',
    INVALID_INPUT: 'BAD_REQUEST',
    INVALID_ARCHIVE: 'BAD_REQUEST',
    BASE_MISMATCH: 'BAD_REQUEST',
    NOT_A_DIRECTORY: 'BAD_REQUEST',
    IS_A_DIRECTORY: 'BAD_REQUEST',
    SYMLINK_LOOP: 'BAD_REQUEST',
    NOT_EMPTY: 'CONFLICT',
    TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  },
  AuthError: {
    INVALID_CREDENTIAL: 'UNAUTHORIZED',
    INVALID_INPUT: 'BAD_REQUEST',
    UNSAFE_QUERY_FIELD: 'BAD_REQUEST',
    TOKEN_CREATION_FAILED: 'INTERNAL',
  },
  SchedulerError: {
    INVALID_CRON: 'BAD_REQUEST',
    INVALID_ARGS: 'BAD_REQUEST',
    INVALID_SCHEDULE: 'BAD_REQUEST',
    UNKNOWN_TASK_TYPE: 'BAD_REQUEST',
  },
}

/**
 * How a library error's message reaches the caller, by name and code: replaced by a fixed
 * text (the library's own would name internals), or rewritten to the wire's field names.
 * Codes not listed keep their message as it is.
 */
const LIBRARY_MESSAGES: Record<string, Record<string, string | ((message: string) => string)>> = {
  AuthError: {
    // The spec's 500 on token creation failure; what failed goes to the log through `cause`.
    TOKEN_CREATION_FAILED: 'could not create an access token',
    INVALID_INPUT: authMessageForWire,
    UNSAFE_QUERY_FIELD: authMessageForWire,
  },
}

/** The wire code for a library error's code, when the library code is not one itself. */
export function wireCodeOf(name: unknown, code: unknown): ErrorCode | undefined {
  if (typeof name !== 'string' || typeof code !== 'string') return undefined
  return LIBRARY_CODES[name]?.[code]
}

/** The message a library error is answered with (see {@link LIBRARY_MESSAGES}). */
export function wireMessageOf(name: string, code: unknown, message: string): string {
  const rule = typeof code === 'string' ? LIBRARY_MESSAGES[name]?.[code] : undefined
  if (rule === undefined) return message
  return typeof rule === 'string' ? rule : rule(message)
}
