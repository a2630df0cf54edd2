import type { Task, TaskStatus } from './task'

/** Which tasks {@link TaskStore.list} returns. An absent field does not filter. */
export interface TaskFilter {
  /** Only tasks in one of these statuses (an empty list matches nothing). */
  status?: readonly TaskStatus[]
  /** Only tasks enqueued by this cron schedule. */
  scheduleId?: string
}

/**
 * Where tasks persist: the port the runner writes through. Records are plain JSON-able
 * objects keyed by `id`, so an ordered key-value store implements it with one key per task
 * (`put` = one put, `delete` = one atomic batch, `list` = one ordered range scan plus a
 * filter). The runner is the only writer and serialises its writes, so no compare-and-swap
 * is needed. Check an implementation with `runTaskStoreConformance` from
 * `@svcdb/scheduler/testing`.
 */
export interface TaskStore {
  /** The task with that id, or `undefined`. */
  get(id: string): Promise<Task | undefined>
  /** Tasks matching `filter`, ordered by id, ascending. */
  list(filter?: TaskFilter): Promise<Task[]>
  /**
   * Stores `task`, replacing any record with the same id entirely (fields absent from
   * `task` are absent afterwards).
   */
  put(task: Task): Promise<void>
  /** Removes the tasks with these ids in one atomic step; unknown ids are ignored. */
  delete(ids: readonly string[]): Promise<void>
}

/** True when `task` passes `filter` (the reference semantics of {@link TaskStore.list}). */
export function matchesTaskFilter(task: Task, filter: TaskFilter = {}): boolean {
  if (filter.status !== undefined && !filter.status.includes(task.status)) return false
  if (filter.scheduleId !== undefined && task.scheduleId !== filter.scheduleId) return false
  return true
}
