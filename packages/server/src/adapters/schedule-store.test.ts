import type { CronSchedule, ScheduleStore } from '@svcdb/scheduler'
import { runScheduleStoreConformance } from '@svcdb/scheduler/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngineScheduleStore } from './schedule-store'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'

const openStore = async (): Promise<ScheduleStore & { destroy(): Promise<void> }> => {
  const temp = await openTempDatabase()
  return Object.assign(createEngineScheduleStore(temp.db), { destroy: () => temp.destroy() })
}
runScheduleStoreConformance('engine system store on disk', openStore, {
  close: (store) => store.destroy(),
})

const schedule = (id: string): CronSchedule => ({
  id,
  schedule: '0 3 * * *',
  taskType: 'gc',
  args: { dry_run: false },
  enabled: true,
  createdAt: 1_000,
  updatedAt: 2_000,
})

describe('createEngineScheduleStore', () => {
  let temp: TempDatabase | undefined
  afterEach(async () => {
    await temp?.destroy()
    temp = undefined
  })

  it('keeps schedules across closing and reopening the database', async () => {
    temp = await openTempDatabase()
    const before = createEngineScheduleStore(temp.db)
    await before.put(schedule('nightly'))
    await before.put(schedule('hourly'))
    await before.delete('hourly')
    const after = createEngineScheduleStore(await temp.reopen())
    expect(await after.list()).toEqual([schedule('nightly')])
  })

  it('lists ids of any characters in JavaScript string order', async () => {
    temp = await openTempDatabase()
    const store = createEngineScheduleStore(temp.db)
    // Astral characters sort after U+FFFF in UTF-8 and would fall outside a raw prefix scan.
    const ids = ['😀 party', '\uffffmax', 'ü', 'a b', 'a', 'Z', '~tilde', '!bang']
    for (const id of ids) await store.put(schedule(id))
    expect((await store.list()).map((s) => s.id)).toEqual([...ids].sort())
    expect(await store.get('😀 party')).toEqual(schedule('😀 party'))
  })
})
