import { describe, expect, it } from 'vitest'
import { type CronScheduleInput, createCronScheduler } from './cron-scheduler'
import { type SchedulerError } from './errors'
import { createMemoryScheduleStore } from './memory-schedule-store'
import { createMemoryTaskStore } from './memory-task-store'
import type { ScheduleStore } from './schedule-store'
import { createTaskRunner } from './task-runner'
import type { TaskStore } from './task-store'
import { createFakeClock, type FakeClock } from './testing/fake-clock'
import { schedulerRejection } from './testing/runner-harness'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const T0 = Date.UTC(2026, 0, 1) // midnight

interface Stores {
  tasks: TaskStore
  schedules: ScheduleStore
}

/** A runner (not started: its tasks stay pending unless `run`) and a cron scheduler on one clock. */
function setup(options: { clock?: FakeClock; stores?: Stores; run?: boolean } = {}) {
  const clock = options.clock ?? createFakeClock(T0)
  const stores = options.stores ?? {
    tasks: createMemoryTaskStore(),
    schedules: createMemoryScheduleStore(),
  }
  const runner = createTaskRunner({ clock, store: stores.tasks })
  runner.register('gc', async () => 'collected')
  runner.register('reindex', async () => undefined)
  runner.register('backup', async () => undefined)
  const errors: SchedulerError[] = []
  const cron = createCronScheduler({
    runner,
    clock,
    store: stores.schedules,
    onError: (e) => errors.push(e),
  })
  return { clock, stores, runner, cron, errors }
}

const nightly: CronScheduleInput = {
  id: 'nightly-gc',
  schedule: '0 3 * * *',
  taskType: 'gc',
  args: {},
  enabled: true,
}

describe('createCronScheduler', () => {
  it('creates a schedule with normalised expression and args and its next run', async () => {
    const { cron } = setup()
    const created = await cron.create({ ...nightly, schedule: ' 0  3 * * * ' })
    expect(created).toEqual({
      id: 'nightly-gc',
      schedule: '0 3 * * *',
      taskType: 'gc',
      args: { dry_run: false },
      enabled: true,
      createdAt: T0,
      updatedAt: T0,
      nextRunAt: T0 + 3 * HOUR,
    })
    expect(await cron.get('nightly-gc')).toEqual(created)
    expect(await cron.list()).toEqual([created])
  })

  it.each<[string, Partial<CronScheduleInput>, string, RegExp]>([
    ['six fields', { schedule: '0 0 3 * * *' }, 'INVALID_CRON', /got 6/],
    ['an impossible date', { schedule: '0 0 30 2 *' }, 'INVALID_CRON', /never fires/],
    ['an out-of-range hour', { schedule: '0 25 * * *' }, 'INVALID_CRON', /hour field "25"/],
    ['an unknown task type', { taskType: 'defrag' }, 'UNKNOWN_TASK_TYPE', /"defrag"/],
    ['bad args', { taskType: 'reindex', args: {} }, 'INVALID_ARGS', /path/],
    ['an empty id', { id: '' }, 'INVALID_SCHEDULE', /must not be empty/],
    ['an id with a slash', { id: 'a/b' }, 'INVALID_SCHEDULE', /"\/"/],
    ['a non-boolean enabled', { enabled: 'yes' as never }, 'INVALID_SCHEDULE', /enabled/],
  ])('refuses %s', async (_, change, code, message) => {
    const { cron } = setup()
    const err = await schedulerRejection(cron.create({ ...nightly, ...change }))
    expect(err.code).toBe(code)
    expect(err.message).toMatch(message)
    expect(await cron.list()).toEqual([])
  })

  it('refuses an id that exists with CONFLICT, leaving the first', async () => {
    const { cron } = setup()
    const first = await cron.create(nightly)
    const err = await schedulerRejection(cron.create({ ...nightly, schedule: '* * * * *' }))
    expect(err).toMatchObject({ code: 'CONFLICT', id: 'nightly-gc' })
    expect(await cron.get('nightly-gc')).toEqual(first)
  })

  it('updates only the fields given', async () => {
    const { cron, clock } = setup()
    const created = await cron.create(nightly)
    await clock.advance(MINUTE)
    const updated = await cron.update('nightly-gc', { args: { dry_run: true } })
    expect(updated).toEqual({ ...created, args: { dry_run: true }, updatedAt: T0 + MINUTE })
    const moved = await cron.update('nightly-gc', { schedule: '30 4 * * *' })
    expect(moved).toMatchObject({ schedule: '30 4 * * *', nextRunAt: T0 + 4.5 * HOUR })
    expect(moved.args).toEqual({ dry_run: true })
    expect(await cron.get('nightly-gc')).toEqual(moved)
  })

  it('validates a changed task type against the args it will run with', async () => {
    const { cron } = setup()
    await cron.create(nightly)
    const err = await schedulerRejection(cron.update('nightly-gc', { taskType: 'reindex' }))
    expect(err.code).toBe('INVALID_ARGS')
    const changed = await cron.update('nightly-gc', { taskType: 'reindex', args: { path: '/d' } })
    expect(changed).toMatchObject({ taskType: 'reindex', args: { path: '/d' } })
  })

  it('refuses a bad update without changing anything, and an unknown id with NOT_FOUND', async () => {
    const { cron } = setup()
    const created = await cron.create(nightly)
    expect(
      (await schedulerRejection(cron.update('nightly-gc', { schedule: '61 * * * *' }))).code,
    ).toBe('INVALID_CRON')
    expect(
      (await schedulerRejection(cron.update('nightly-gc', { enabled: 1 as never }))).code,
    ).toBe('INVALID_SCHEDULE')
    expect(await cron.get('nightly-gc')).toEqual(created)
    expect((await schedulerRejection(cron.update('nope', { enabled: false }))).code).toBe(
      'NOT_FOUND',
    )
    expect((await schedulerRejection(cron.get('nope'))).code).toBe('NOT_FOUND')
  })

  it('deletes a schedule, and answers NOT_FOUND for an unknown one', async () => {
    const { cron } = setup()
    await cron.create(nightly)
    await cron.delete('nightly-gc')
    expect(await cron.list()).toEqual([])
    expect(await schedulerRejection(cron.delete('nightly-gc'))).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('enqueues one task per due time, on the fake clock', async () => {
    const { cron, runner, clock } = setup()
    await runner.start()
    await cron.create({ ...nightly, id: 'every-5', schedule: '*/5 * * * *' })
    await cron.start()
    await clock.advance(HOUR)
    const tasks = await runner.list()
    expect(tasks.map((t) => t.createdAt - T0)).toEqual(
      Array.from({ length: 12 }, (_, i) => (i + 1) * 5 * MINUTE),
    )
    expect(tasks.every((t) => t.status === 'completed' && t.scheduleId === 'every-5')).toBe(true)
    expect(await cron.get('every-5')).toMatchObject({
      lastRunAt: T0 + HOUR,
      lastTaskId: tasks[11]?.id,
      nextRunAt: T0 + HOUR + 5 * MINUTE,
    })
  })

  it('keeps at most one pending run per schedule', async () => {
    const { cron, runner, clock } = setup() // the runner is never started
    await cron.create({ ...nightly, id: 'minutely', schedule: '* * * * *' })
    await cron.create({ ...nightly, id: 'hourly', schedule: '0 * * * *' })
    await cron.start()
    await clock.advance(3 * HOUR)
    expect(await runner.list({ scheduleId: 'minutely' })).toHaveLength(1)
    expect(await runner.list({ scheduleId: 'hourly' })).toHaveLength(1)
    // Once the pending one is gone, the next due time enqueues again.
    const [pending] = await runner.list({ scheduleId: 'minutely' })
    await runner.cancel(pending?.id ?? '')
    await clock.advance(MINUTE)
    expect(await runner.list({ scheduleId: 'minutely', status: ['pending'] })).toHaveLength(1)
  })

  it('catches up after downtime with one run, not one per missed time', async () => {
    const clock = createFakeClock(T0)
    const first = setup({ clock })
    await first.cron.create({ ...nightly, id: 'minutely', schedule: '* * * * *' })
    await first.cron.create({ ...nightly, id: 'daily', schedule: '0 0 * * *' })
    await first.cron.create({ ...nightly, id: 'off', schedule: '* * * * *', enabled: false })
    await first.cron.start()
    await first.cron.stop()
    await clock.advance(3 * DAY + 30_000) // nothing runs: the process is down
    expect(clock.pendingTimers).toBe(0)
    const second = setup({ clock, stores: first.stores })
    await second.cron.start()
    const tasks = await second.runner.list()
    expect(tasks.map((t) => t.scheduleId).sort()).toEqual(['daily', 'minutely'])
    expect(tasks.every((t) => t.createdAt === clock.now())).toBe(true)
    expect(await second.cron.get('minutely')).toMatchObject({ nextRunAt: T0 + 3 * DAY + MINUTE })
    expect(await second.cron.get('daily')).toMatchObject({ nextRunAt: T0 + 4 * DAY })
  })

  it('never enqueues while disabled, and does not catch up when enabled again', async () => {
    const { cron, runner, clock } = setup()
    await runner.start()
    await cron.create({ ...nightly, id: 'm', schedule: '* * * * *', enabled: false })
    expect(await cron.get('m')).not.toHaveProperty('nextRunAt')
    await cron.start()
    await clock.advance(HOUR)
    expect(await runner.list()).toEqual([])
    await clock.advance(30_000)
    const enabled = await cron.update('m', { enabled: true })
    expect(enabled.nextRunAt).toBe(T0 + HOUR + MINUTE)
    await clock.advance(MINUTE)
    expect(await runner.list()).toHaveLength(1)
    expect(await cron.update('m', { enabled: false })).not.toHaveProperty('nextRunAt')
    await clock.advance(HOUR)
    expect(await runner.list()).toHaveLength(1)
  })

  it('wakes for a schedule created while it sleeps', async () => {
    const { cron, runner, clock } = setup()
    await cron.start()
    await clock.advance(10 * MINUTE)
    await cron.create({ ...nightly, schedule: '15 0 * * *' })
    await clock.advance(5 * MINUTE)
    expect(await runner.list()).toHaveLength(1)
  })

  it('skips a due time whose enqueue fails, reporting it, without retrying in a loop', async () => {
    const clock = createFakeClock(T0)
    const tasks = createMemoryTaskStore()
    let enqueues = 0
    const cron = createCronScheduler({
      clock,
      runner: {
        parseArgs: (_type, args) => args as Record<string, unknown>,
        list: (filter) => tasks.list(filter),
        enqueue: async () => {
          enqueues += 1
          throw new Error('queue unavailable')
        },
      },
      onError: (e) => errors.push(e),
    })
    const errors: SchedulerError[] = []
    await cron.create({ ...nightly, schedule: '0 * * * *' })
    await cron.start()
    await clock.advance(3 * HOUR)
    expect(enqueues).toBe(3)
    expect(errors.map((e) => [e.code, e.id, e.message])).toEqual(
      Array(3).fill([
        'STORE_ERROR',
        'nightly-gc',
        'cron schedule nightly-gc could not enqueue its task: queue unavailable',
      ]),
    )
    expect(await cron.get('nightly-gc')).toMatchObject({ nextRunAt: T0 + 4 * HOUR })
    expect(await cron.get('nightly-gc')).not.toHaveProperty('lastRunAt')
  })

  it('keeps its loop alive through a failing schedule store', async () => {
    const inner = createMemoryScheduleStore()
    let failing = false
    const schedules: ScheduleStore = {
      ...inner,
      list: async () => {
        if (failing) throw new Error('LEVEL_IO_ERROR')
        return inner.list()
      },
    }
    const { cron, runner, clock, errors } = setup({
      stores: { tasks: createMemoryTaskStore(), schedules },
    })
    await cron.create({ ...nightly, schedule: '* * * * *' })
    await cron.start()
    failing = true
    await clock.advance(3 * MINUTE)
    expect(await runner.list()).toEqual([])
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.every((e) => e.code === 'STORE_ERROR' && e.cause instanceof Error)).toBe(true)
    failing = false
    await clock.advance(MINUTE)
    expect(await runner.list()).toHaveLength(1)
  })

  it('stops ticking when stopped', async () => {
    const { cron, runner, clock } = setup()
    await cron.create({ ...nightly, schedule: '* * * * *' })
    await cron.start()
    await cron.stop()
    expect(clock.pendingTimers).toBe(0)
    await clock.advance(HOUR)
    expect(await runner.list()).toEqual([])
  })

  it('sleeps at most maxSleepMs, and refuses a bad one', async () => {
    const clock = createFakeClock(T0)
    const runner = createTaskRunner({ clock })
    const cron = createCronScheduler({ runner, clock, maxSleepMs: 1000 })
    await cron.start()
    expect(clock.pendingTimers).toBe(1)
    await clock.advance(999)
    expect(clock.pendingTimers).toBe(1)
    expect(() => createCronScheduler({ runner, maxSleepMs: 0 })).toThrow(RangeError)
  })
})
