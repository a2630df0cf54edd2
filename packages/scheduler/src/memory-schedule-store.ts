import type { CronSchedule } from './cron-schedule'
import type { ScheduleStore } from './schedule-store'

/**
 * A {@link ScheduleStore} in memory, for tests and for embedded use without persistence.
 * Records are cloned on the way in and out, as a real store's serialisation would.
 *
 * @example
 * const scheduler = createScheduler({ scheduleStore: createMemoryScheduleStore() })
 */
export function createMemoryScheduleStore(): ScheduleStore {
  const schedules = new Map<string, CronSchedule>()
  return {
    get: async (id) => {
      const schedule = schedules.get(id)
      return schedule === undefined ? undefined : structuredClone(schedule)
    },
    list: async () =>
      [...schedules.values()]
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((schedule) => structuredClone(schedule)),
    put: async (schedule) => {
      schedules.set(schedule.id, structuredClone(schedule))
    },
    putIf: async (schedule, expected) => {
      // Compared as JSON text, as a key-value store compares the bytes it holds.
      const stored = schedules.get(schedule.id)
      if (JSON.stringify(stored) !== JSON.stringify(expected)) return false
      schedules.set(schedule.id, structuredClone(schedule))
      return true
    },
    delete: async (id) => {
      schedules.delete(id)
    },
  }
}
