import type { CronSchedule } from './cron-schedule'

/**
 * Where cron schedules persist. Records are plain JSON-able objects keyed by `id`, one key
 * each in an ordered key-value store. The cron scheduler is the only writer and serialises
 * its writes (it checks for an existing id before creating one). Check an implementation
 * with `runScheduleStoreConformance` from `@svcdb/scheduler/testing`.
 */
export interface ScheduleStore {
  /** The schedule with that id, or `undefined`. */
  get(id: string): Promise<CronSchedule | undefined>
  /** Every schedule, ordered by id, ascending. */
  list(): Promise<CronSchedule[]>
  /** Stores `schedule`, replacing any record with the same id entirely. */
  put(schedule: CronSchedule): Promise<void>
  /** Removes the schedule with that id; an unknown id is ignored. */
  delete(id: string): Promise<void>
}
