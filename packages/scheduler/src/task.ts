/**
 * Every status a task can have. `pending → running → completed | failed`, and `cancelled`
 * reached from any of them by a cancel request.
 */
export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const

/** A task's status, one of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** The statuses a task ends in: it never runs again once in one of them. */
export const TERMINAL_TASK_STATUSES = ['completed', 'failed', 'cancelled'] as const

/** True when a task in `status` has finished for good (completed, failed or cancelled). */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled'
}

/**
 * A background task, as kept by a {@link TaskStore}. The spec's Task resource in camelCase
 * (`taskType` is `task_type`, `etaMs` is `eta_ms`), plus bookkeeping. Times are Unix ms.
 */
export interface Task {
  /** Unique id; the default generator makes UUIDv7s, which sort by creation. */
  id: string
  /** `reindex`, `gc`, `backup`, or any other type with a registered handler. */
  taskType: string
  status: TaskStatus
  /** The validated arguments, a JSON object (wire names, e.g. `{ dry_run: false }`). */
  args: Record<string, unknown>
  /** 0.0 to 1.0; 1 once completed. */
  progress: number
  /** Estimated completion time, Unix ms; only while running and after some progress. */
  etaMs?: number
  createdAt: number
  /** When the current (or last) run began. */
  startedAt?: number
  /** When the task became completed, failed or cancelled. */
  finishedAt?: number
  /** The message of the error that failed the task. */
  error?: string
  /** What the handler returned, as JSON (for example gc statistics); absent when nothing. */
  result?: unknown
  /** The cron schedule that enqueued the task, if one did. */
  scheduleId?: string
  /**
   * The `nodeId` of the runner that claimed the current (or last) run, when runners share a
   * store. Bookkeeping for recovery: API views leave it out.
   */
  owner?: string
}
