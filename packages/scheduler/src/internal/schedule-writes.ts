import type { CronSchedule } from '../cron-schedule'
import type { ScheduleStore } from '../schedule-store'
import { CAS_ATTEMPTS } from './store-writes'

/**
 * Writes `change(current)` over the stored `current` of one schedule, as a compare-and-set
 * when the store has `putIf`: when another node wrote the record first, `change` is applied
 * again to what it wrote (so nodes ticking one slot, and an update on another node, merge
 * instead of overwriting each other). `change` returns `undefined` when nothing is left to
 * write. Resolves what was written, or `undefined` when nothing was or the record is gone.
 *
 * @throws {Error} `conflict()` when the record kept changing for every attempt.
 */
export async function writeSchedule(
  store: ScheduleStore,
  current: CronSchedule,
  change: (current: CronSchedule) => CronSchedule | undefined,
  conflict: () => Error,
): Promise<CronSchedule | undefined> {
  let expected: CronSchedule | undefined = current
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    if (expected === undefined) return undefined
    const next = change(expected)
    if (next === undefined) return undefined
    if (store.putIf === undefined) {
      await store.put(next)
      return next
    }
    if (await store.putIf(next, expected)) return next
    expected = await store.get(current.id)
  }
  throw conflict()
}
