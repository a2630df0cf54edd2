import { isSchedulerError, SchedulerError } from '../errors'
import type { CronSchedule } from '../cron-schedule'
import type { ScheduleStore } from '../schedule-store'
import type { Task } from '../task'
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
    ...(store.putIf === undefined
      ? {}
      : {
          putIf: (task: Task, expected: Task | undefined) =>
            guard(`writing task ${task.id}`, async () =>
              store.putIf === undefined ? false : store.putIf(task, expected),
            ),
        }),
    delete: (ids) => guard('deleting tasks', () => store.delete(ids)),
  }
}

/** Wraps a {@link ScheduleStore} so that whatever it throws surfaces as `STORE_ERROR`. */
export function guardScheduleStore(store: ScheduleStore): ScheduleStore {
  return {
    get: (id) => guard(`reading schedule ${id}`, () => store.get(id)),
    list: () => guard('listing schedules', () => store.list()),
    put: (schedule) => guard(`writing schedule ${schedule.id}`, () => store.put(schedule)),
    ...(store.putIf === undefined
      ? {}
      : {
          putIf: (schedule: CronSchedule, expected: CronSchedule | undefined) =>
            guard(`writing schedule ${schedule.id}`, async () =>
              store.putIf === undefined ? false : store.putIf(schedule, expected),
            ),
        }),
    delete: (id) => guard(`deleting schedule ${id}`, () => store.delete(id)),
  }
}
