/** Why a scheduler operation failed. */
export type SchedulerErrorCode =
  /** No task or schedule with that id. */
  | 'NOT_FOUND'
  /** A schedule id is already used. */
  | 'CONFLICT'
  /** A cron expression is not five valid fields, or never fires. */
  | 'INVALID_CRON'
  /** Task arguments do not fit the task type. */
  | 'INVALID_ARGS'
  /** No handler is registered for a task type. */
  | 'UNKNOWN_TASK_TYPE'
  /** The task store failed; see `cause`. */
  | 'STORE_ERROR'

/** Options of a {@link SchedulerError}. */
export interface SchedulerErrorOptions {
  cause?: unknown
  /** The task or schedule id the error is about. */
  id?: string
}

/** Every failure of the scheduler. Match on `code` with {@link isSchedulerError}. */
export class SchedulerError extends Error {
  override readonly name = 'SchedulerError'
  readonly code: SchedulerErrorCode
  readonly id: string | undefined

  constructor(code: SchedulerErrorCode, message: string, options: SchedulerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.id = options.id
  }
}

/** True when `err` is a {@link SchedulerError}, optionally with the given code. */
export function isSchedulerError(err: unknown, code?: SchedulerErrorCode): err is SchedulerError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'SchedulerError' &&
    typeof e.code === 'string' &&
    (code === undefined || e.code === code)
  )
}
