import type { Database } from '@svcdb/engine'
import type { CronSchedule, ScheduleStore } from '@svcdb/scheduler'
import { encodeKeySegment } from './key-segment'

const SCHEDULES = 'schedule/'
const scheduleKey = (id: string) => SCHEDULES + encodeKeySegment(id)

/**
 * The {@link ScheduleStore} of the server: one JSON record per cron schedule in namespace
 * `cron` of the database's system store, listed in id order by one range scan. Schedule ids
 * are chosen by clients, so keys encode them (any character, emoji included, lists in place).
 *
 * @example
 * const cron = createCronScheduler({ store: createEngineScheduleStore(db), runner })
 */
export function createEngineScheduleStore(db: Database): ScheduleStore {
  const system = db.systemStore('cron')
  return {
    async get(id) {
      const raw = await system.get(scheduleKey(id))
      return raw === undefined ? undefined : (JSON.parse(raw) as CronSchedule)
    },
    async list() {
      return (await system.entries(SCHEDULES)).map(([, raw]) => JSON.parse(raw) as CronSchedule)
    },
    put: (schedule) =>
      system.batch([
        { type: 'put', key: scheduleKey(schedule.id), value: JSON.stringify(schedule) },
      ]),
    delete: (id) => system.batch([{ type: 'del', key: scheduleKey(id) }]),
  }
}
