import type { Task, TaskStore } from '@svcdb/scheduler'
import { runTaskStoreConformance } from '@svcdb/scheduler/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngineTaskStore } from './task-store'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'

const openStore = async (): Promise<TaskStore & { destroy(): Promise<void> }> => {
  const temp = await openTempDatabase()
  return Object.assign(createEngineTaskStore(temp.db), { destroy: () => temp.destroy() })
}
runTaskStoreConformance('engine system store on disk', openStore, {
  close: (store) => store.destroy(),
})

const task = (id: string, overrides: Partial<Task> = {}): Task => ({
  id,
  taskType: 'gc',
  status: 'pending',
  args: { dry_run: true },
  progress: 0,
  createdAt: 1_000,
  ...overrides,
})

describe('createEngineTaskStore', () => {
  let temp: TempDatabase | undefined
  afterEach(async () => {
    await temp?.destroy()
    temp = undefined
  })

  it('keeps tasks across closing and reopening the database', async () => {
    temp = await openTempDatabase()
    const before = createEngineTaskStore(temp.db)
    await before.put(task('b', { status: 'running', progress: 0.5, scheduleId: 'nightly' }))
    await before.put(task('a'))
    await before.delete(['gone'])
    const after = createEngineTaskStore(await temp.reopen())
    expect(await after.list()).toEqual([
      task('a'),
      task('b', { status: 'running', progress: 0.5, scheduleId: 'nightly' }),
    ])
    expect(await after.list({ scheduleId: 'nightly' })).toHaveLength(1)
  })
})
