import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import type { CronSchedule, ScheduleStore } from '@svcdb/scheduler'
import { encodeKeySegment } from './key-segment'

const SCHEDULES = 'schedule/'
const scheduleKey = (id: string) => SCHEDULES + encodeKeySegment(id)

/**
 * The {@link ScheduleStore} of the server: one JSON record per cron schedule in namespace
 * `cron` of the database's system store, listed in id order by one range scan. Schedule ids
 * are chosen by clients, so keys encode them (any character, emoji included, lists in place).
 * `putIf` is a guarded batch on the record's JSON text, so nodes sharing the database never
 * overwrite each other's schedule writes.
 *
 * @example
 * const cron = createCronScheduler({ store: createEngineScheduleStore(db), runner })
 */
export function createEngineScheduleStore(db: Database): Required<ScheduleStore> {
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
    async putIf(schedule, expected) {
      const key = scheduleKey(schedule.id)
      try {
        await system.batch([{ type: 'put', key, value: JSON.stringify(schedule) }], {
          guards: [{ key, expect: expected === undefined ? null : JSON.stringify(expected) }],
        })
        return true
      } catch (err) {
        if (isEngineError(err, 'CONFLICT')) return false
        throw err
      }
    },
    delete: (id) => system.batch([{ type: 'del', key: scheduleKey(id) }]),
  }
}
