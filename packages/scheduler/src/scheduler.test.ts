import { describe, expect, it } from 'vitest'
import { createMemoryScheduleStore } from './memory-schedule-store'
import { createMemoryTaskStore } from './memory-task-store'
import { createScheduler } from './scheduler'
import type { Task } from './task'
import type { GcArgs } from './task-args'
import { createFakeClock } from './testing/fake-clock'

const MINUTE = 60_000
const T0 = Date.UTC(2026, 0, 1)

describe('createScheduler', () => {
  it('runs cron-enqueued tasks through the registered handler, with progress', async () => {
    const clock = createFakeClock(T0)
    const changes: Task[] = []
    const scheduler = createScheduler({ clock, onChange: (task) => changes.push(task) })
    const seen: GcArgs[] = []
    scheduler.tasks.register('gc', async ({ args, reportProgress }) => {
      seen.push(args)
      reportProgress(0.5)
      return { dry_run: args.dry_run, reclaimed_bytes: 0 }
    })
    await scheduler.cron.create({
      id: 'gc-every-10',
      schedule: '*/10 * * * *',
      taskType: 'gc',
      args: { dry_run: true },
      enabled: true,
    })
    await scheduler.start()
    await clock.advance(30 * MINUTE)
    const tasks = await scheduler.tasks.list()
    expect(tasks).toHaveLength(3)
    expect(tasks.map((t) => [t.status, t.scheduleId, t.result])).toEqual(
      Array(3).fill(['completed', 'gc-every-10', { dry_run: true, reclaimed_bytes: 0 }]),
    )
    expect(seen).toEqual(Array(3).fill({ dry_run: true }))
    expect(changes.map((c) => c.status).slice(0, 3)).toEqual(['pending', 'running', 'completed'])
    await scheduler.stop()
  })

  it('answers enqueue with the id, task_type and status the API needs', async () => {
    const scheduler = createScheduler({ clock: createFakeClock(T0) })
    scheduler.tasks.register('reindex', async () => undefined)
    const { id, taskType, status } = await scheduler.tasks.enqueue('reindex', { path: '/docs' })
    expect({ taskType, status }).toEqual({ taskType: 'reindex', status: 'pending' })
    expect((await scheduler.tasks.get(id)).args).toEqual({ path: '/docs' })
  })

  it('survives a restart on the same stores: interrupted tasks rerun, schedules catch up once', async () => {
    const clock = createFakeClock(T0)
    const taskStore = createMemoryTaskStore()
    const scheduleStore = createMemoryScheduleStore()
    const make = () => {
      const scheduler = createScheduler({ clock, taskStore, scheduleStore })
      const started: string[] = []
      scheduler.tasks.register('backup', ({ id, signal }) => {
        started.push(id)
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        )
      })
      return { scheduler, started }
    }
    const first = make()
    await first.scheduler.cron.create({
      id: 'hourly-backup',
      schedule: '0 * * * *',
      taskType: 'backup',
      args: { keep: 3 },
      enabled: true,
    })
    await first.scheduler.start()
    await clock.advance(60 * MINUTE)
    expect(first.started).toHaveLength(1)
    await first.scheduler.stop()
    await clock.advance(5 * 60 * MINUTE)
    const second = make()
    await second.scheduler.start()
    await clock.flush()
    // The interrupted run restarts; the five missed hours add one pending run, not five.
    expect(second.started).toEqual(first.started)
    const tasks = await second.scheduler.tasks.list()
    expect(tasks.map((t) => t.status)).toEqual(['running', 'pending'])
    await second.scheduler.stop()
  })
})
