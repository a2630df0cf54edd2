import { isTerminalStatus, type Task } from './task'

/** How many finished tasks are kept, and for how long. */
export interface TaskRetention {
  /** At most this many completed, failed or cancelled tasks are kept (default 1000). */
  maxCount?: number
  /** Finished tasks older than this are removed (default 7 days). */
  maxAgeMs?: number
}

/** The retention used when none is given: 1000 finished tasks, 7 days. */
export const DEFAULT_TASK_RETENTION = { maxCount: 1000, maxAgeMs: 7 * 24 * 60 * 60 * 1000 } as const

/**
 * The ids of the finished tasks to remove so that at most `maxCount` remain and none is older
 * than `maxAgeMs`; the oldest go first (by `finishedAt`, else `createdAt`). Pending and
 * running tasks are never chosen.
 */
export function selectExpiredTasks(
  tasks: readonly Task[],
  now: number,
  retention: TaskRetention = {},
): string[] {
  const maxCount = retention.maxCount ?? DEFAULT_TASK_RETENTION.maxCount
  const maxAgeMs = retention.maxAgeMs ?? DEFAULT_TASK_RETENTION.maxAgeMs
  const finished = tasks
    .filter((task) => isTerminalStatus(task.status))
    .map((task) => ({ id: task.id, at: task.finishedAt ?? task.createdAt }))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  return finished
    .filter((task, rank) => rank >= maxCount || now - task.at > maxAgeMs)
    .map((task) => task.id)
}

/** Throws `RangeError` unless `retention` holds non-negative numbers. */
export function assertRetention(retention: TaskRetention): void {
  for (const [name, value] of Object.entries(retention)) {
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      throw new RangeError(`retention.${name} must be a non-negative number, got ${String(value)}`)
    }
  }
}
