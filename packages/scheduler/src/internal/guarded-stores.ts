import { isSchedulerError, SchedulerError } from '../errors'
import type { ScheduleStore } from '../schedule-store'
import type { TaskStore } from '../task-store'

async function guard<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op()
  } catch (err) {
    if (isSchedulerError(err)) throw err
    const reason = err instanceof Error ? err.message : String(err)
    throw new SchedulerError('STORE_ERROR', `${what} failed: ${reason}`, { cause: err })
  }
}

/** Wraps a {@link TaskStore} so that whatever it throws surfaces as `STORE_ERROR`. */
export function guardTaskStore(store: TaskStore): TaskStore {
  return {
    get: (id) => guard(`reading task ${id}`, () => store.get(id)),
    list: (filter) => guard('listing tasks', () => store.list(filter)),
    put: (task) => guard(`writing task ${task.id}`, () => store.put(task)),
    delete: (ids) => guard('deleting tasks', () => store.delete(ids)),
  }
}

/** Wraps a {@link ScheduleStore} so that whatever it throws surfaces as `STORE_ERROR`. */
export function guardScheduleStore(store: ScheduleStore): ScheduleStore {
  return {
    get: (id) => guard(`reading schedule ${id}`, () => store.get(id)),
    list: () => guard('listing schedules', () => store.list()),
    put: (schedule) => guard(`writing schedule ${schedule.id}`, () => store.put(schedule)),
    delete: (id) => guard(`deleting schedule ${id}`, () => store.delete(id)),
  }
}
