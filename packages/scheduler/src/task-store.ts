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
 * filter). One runner alone serialises its writes and needs only `put`; runners on several
 * nodes sharing one store need {@link TaskStore.putIf}. Check an implementation with
 * `runTaskStoreConformance` from `@svcdb/scheduler/testing`.
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
  /**
   * Compare-and-set: stores `task` only if the record now stored under its id is `expected`
   * (`undefined`: no record), and says whether it did. `expected` is a record as `get` or
   * `list` returned it, or as last written, unchanged: a store may compare it as its JSON
   * text. Of racing calls expecting the same record, on any node, exactly one wins.
   * Optional; required for runners on several nodes sharing the store.
   */
  putIf?(task: Task, expected: Task | undefined): Promise<boolean>
  /** Removes the tasks with these ids in one atomic step; unknown ids are ignored. */
  delete(ids: readonly string[]): Promise<void>
}

/** True when `task` passes `filter` (the reference semantics of {@link TaskStore.list}). */
export function matchesTaskFilter(task: Task, filter: TaskFilter = {}): boolean {
  if (filter.status !== undefined && !filter.status.includes(task.status)) return false
  if (filter.scheduleId !== undefined && task.scheduleId !== filter.scheduleId) return false
  return true
}
