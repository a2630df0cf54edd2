import type { CronSchedule } from './cron-schedule'

/**
 * Where cron schedules persist. Records are plain JSON-able objects keyed by `id`, one key
 * each in an ordered key-value store. One cron scheduler alone serialises its writes and
 * needs only `put`; schedulers on several nodes sharing the store write through
 * {@link ScheduleStore.putIf} when it is there. Check an implementation with
 * `runScheduleStoreConformance` from `@svcdb/scheduler/testing`.
 */
export interface ScheduleStore {
  /** The schedule with that id, or `undefined`. */
  get(id: string): Promise<CronSchedule | undefined>
  /** Every schedule, ordered by id, ascending. */
  list(): Promise<CronSchedule[]>
  /** Stores `schedule`, replacing any record with the same id entirely. */
  put(schedule: CronSchedule): Promise<void>
  /**
   * Compare-and-set: stores `schedule` only if the record now stored under its id is
   * `expected` (`undefined`: no record), and says whether it did. `expected` is a record as
   * `get` or `list` returned it, unchanged (a store may compare JSON text). Of racing calls
   * expecting the same record, on any node, exactly one wins. Optional.
   */
  putIf?(schedule: CronSchedule, expected: CronSchedule | undefined): Promise<boolean>
  /** Removes the schedule with that id; an unknown id is ignored. */
  delete(id: string): Promise<void>
}
