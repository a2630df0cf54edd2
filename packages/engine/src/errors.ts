/** Why an engine operation failed. */
export type EngineErrorCode =
  /** No entry, version, snapshot or fork of that name. */
  | 'NOT_FOUND'
  /** The target already exists, or a concurrent change won. */
  | 'CONFLICT'
  /** A path crosses a file or symlink where a directory was expected. */
  | 'NOT_A_DIRECTORY'
  /** A file operation was aimed at a directory. */
  | 'IS_A_DIRECTORY'
  /** A directory still holds entries and `recursive` was not given. */
  | 'NOT_EMPTY'
  | 'INVALID_PATH'
  /** An argument is malformed (a value of the wrong shape or size). */
  | 'INVALID_INPUT'
  /** A snapshot or fork name is not acceptable. */
  | 'INVALID_NAME'
  | 'INVALID_HASH'
  /** A conditional write (`ifMatch`, `ifNoneMatch`) did not hold. */
  | 'PRECONDITION_FAILED'
  /** A symlink chain loops or exceeds the hop limit. */
  | 'SYMLINK_LOOP'
  /** Stored bytes no longer match their hash or checksum; they are never served. */
  | 'CONTENT_CORRUPT'
  /** Another process holds the database directory. */
  | 'LOCKED'
  /** The database was closed. */
  | 'CLOSED'
  /** An archive is malformed, truncated, lies about a hash or is incomplete; nothing was changed. */
  | 'INVALID_ARCHIVE'
  /** An input exceeded a configured size or count limit. */
  | 'TOO_LARGE'
  /** A patch does not apply to the current HEAD. */
  | 'BASE_MISMATCH'
  /** A change-feed consumer fell too far behind and changes were dropped. */
  | 'OVERRUN'
  /** An operation was cancelled through its `AbortSignal`. */
  | 'ABORTED'
  /**
   * The device (or the disk quota) holding the database directory is full (`ENOSPC`,
   * `EDQUOT`): nothing was written, reads still work, and writes succeed again once space is
   * freed.
   */
  | 'INSUFFICIENT_STORAGE'
  /** The storage layer failed; see `cause`. */
  | 'IO_ERROR'

/** Options of an {@link EngineError}. */
export interface EngineErrorOptions {
  cause?: unknown
  /** The database path the error is about, when there is one. */
  path?: string
}

/**
 * Every failure of the engine. Match on `code` (with {@link isEngineError}), not on the
 * class: two copies of the package would break `instanceof`.
 */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  readonly code: EngineErrorCode
  readonly path: string | undefined

  constructor(code: EngineErrorCode, message: string, options: EngineErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.path = options.path
  }
}

/** True when `err` is an {@link EngineError}, optionally with the given code. */
export function isEngineError(err: unknown, code?: EngineErrorCode): err is EngineError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'EngineError' &&
    typeof e.code === 'string' &&
    (code === undefined || e.code === code)
  )
}

/** Throws `ABORTED` (with the signal's reason as cause) once `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted === true)
    throw new EngineError('ABORTED', `${what} was cancelled`, { cause: signal.reason })
}
