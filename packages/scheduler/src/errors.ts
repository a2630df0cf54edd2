/** Why a scheduler operation failed. */
export type SchedulerErrorCode =
  /** No task or schedule with that id. */
  | 'NOT_FOUND'
  /** A schedule id is already used, or a record kept changing under compare-and-set writes. */
  | 'CONFLICT'
  /** A cron expression is not five valid fields, or never fires. */
  | 'INVALID_CRON'
  /** Task arguments do not fit the task type. */
  | 'INVALID_ARGS'
  /** A schedule's id or one of its other fields is malformed. */
  | 'INVALID_SCHEDULE'
  /** A handler reported a progress outside 0..1. */
  | 'INVALID_PROGRESS'
  /** No handler is registered for a task type. */
  | 'UNKNOWN_TASK_TYPE'
  /** The reason a cancelled task's `AbortSignal` carries. */
  | 'CANCELLED'
  /** The reason a running task's `AbortSignal` carries when the scheduler stops. */
  | 'STOPPED'
  /** The task or schedule store failed; see `cause`. */
  | 'STORE_ERROR'

/** One problem found in task arguments: where (`dry_run`, `keep`) and what. */
export interface SchedulerIssue {
  /** Dotted path of the offending field; empty for the arguments object itself. */
  path: string
  message: string
}

/** Options of a {@link SchedulerError}. */
export interface SchedulerErrorOptions {
  cause?: unknown
  /** The task or schedule id the error is about. */
  id?: string
  /** The individual problems behind an `INVALID_ARGS` error. */
  issues?: readonly SchedulerIssue[]
}

/** Every failure of the scheduler. Match on `code` with {@link isSchedulerError}. */
export class SchedulerError extends Error {
  override readonly name = 'SchedulerError'
  readonly code: SchedulerErrorCode
  readonly id: string | undefined
  readonly issues: readonly SchedulerIssue[] | undefined

  constructor(code: SchedulerErrorCode, message: string, options: SchedulerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.id = options.id
    this.issues = options.issues
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
