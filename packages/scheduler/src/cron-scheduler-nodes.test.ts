import { describe, expect, it } from 'vitest'
import { createMemoryScheduleStore } from './memory-schedule-store'
import { createMemoryTaskStore } from './memory-task-store'
import type { ScheduleStore } from './schedule-store'
import type { TaskStore } from './task-store'
import { createScheduler } from './scheduler'
import { createFakeClock } from './testing/fake-clock'

const MINUTE = 60_000
const T0 = Date.UTC(2026, 0, 1)

/** Schedulers on one clock and one pair of stores, each a node (without node ids: `shared: false`). */
function cluster(options: { shared?: boolean; scheduleStore?: ScheduleStore } = {}) {
  const clock = createFakeClock(T0)
  const taskStore = createMemoryTaskStore()
  const scheduleStore = options.scheduleStore ?? createMemoryScheduleStore()
  const node = (
    nodeId: string,
    stores: { taskStore?: TaskStore; scheduleStore?: ScheduleStore } = {},
  ) => {
    const scheduler = createScheduler({
      clock,
      taskStore: stores.taskStore ?? taskStore,
      scheduleStore: stores.scheduleStore ?? scheduleStore,
      ...(options.shared === false ? {} : { nodeId, pollMs: 10 * MINUTE }),
    })
    scheduler.tasks.register('gc', async () => 'collected')
    return scheduler
  }
  return { clock, taskStore, scheduleStore, node }
}

/** A promise that never settles: the node waiting on it has died. */
const never = () => new Promise<never>(() => {})

describe('cron schedulers on several nodes sharing the stores', () => {
  /** Ten minutes of an every-minute schedule, both nodes ticking at once each minute. */
  async function tenMinutes(shared: boolean) {
    const { clock, taskStore, scheduleStore, node } = cluster({ shared })
    const a = node('a')
    const b = node('b')
    await a.cron.create({
      id: 'every-minute',
      schedule: '* * * * *',
      taskType: 'gc',
      args: {},
      enabled: true,
    })
    await a.tasks.start()
    await b.tasks.start()
    for (let minute = 1; minute <= 10; minute++) {
      await clock.advance(MINUTE)
      // Both read the due schedule before either writes it.
      await Promise.all([a.cron.tick(), b.cron.tick()])
      await clock.flush()
    }
    await a.stop()
    await b.stop()
    return { tasks: await taskStore.list({ scheduleId: 'every-minute' }), scheduleStore }
  }

  it('enqueues one task per due slot across the nodes', async () => {
    const { tasks, scheduleStore } = await tenMinutes(true)
    expect(tasks).toHaveLength(10)
    expect(new Set(tasks.map((t) => t.createdAt)).size).toBe(10)
    expect(tasks.every((t) => t.status === 'completed')).toBe(true)
    const schedule = await scheduleStore.get('every-minute')
    expect(schedule).toMatchObject({ nextRunAt: T0 + 11 * MINUTE, lastRunAt: T0 + 10 * MINUTE })
    expect(tasks.map((t) => t.id)).toContain(schedule?.lastTaskId)
  })

  it('enqueues a slot on every node without node ids (what they prevent)', async () => {
    const { tasks } = await tenMinutes(false)
    expect(tasks.length).toBeGreaterThan(10)
  })

  it('enqueues the run of a node that died after reading the due schedule', async () => {
    const { clock, taskStore, scheduleStore, node } = cluster()
    // A dies at its first task write: after it saw the run due, before it enqueued it.
    const a = node('a', { taskStore: { ...taskStore, put: never, putIf: never } })
    const b = node('b')
    await b.cron.create({
      id: 'hourly',
      schedule: '0 * * * *',
      taskType: 'gc',
      args: {},
      enabled: true,
    })
    await clock.advance(60 * MINUTE)
    void a.cron.tick()
    await clock.flush()
    const [task] = await b.cron.tick()
    expect(task?.scheduleId).toBe('hourly')
    expect(await taskStore.list({ scheduleId: 'hourly' })).toHaveLength(1)
    expect(await scheduleStore.get('hourly')).toMatchObject({ lastTaskId: task?.id })
  })

  it('does not enqueue again the run of a node that died before moving the schedule on', async () => {
    const { clock, taskStore, scheduleStore, node } = cluster()
    // A enqueues, then dies at its schedule write; B runs A's task to its end meanwhile.
    const a = node('a', { scheduleStore: { ...scheduleStore, put: never, putIf: never } })
    const b = node('b')
    await b.cron.create({
      id: 'hourly',
      schedule: '0 * * * *',
      taskType: 'gc',
      args: {},
      enabled: true,
    })
    await b.tasks.start()
    await clock.advance(60 * MINUTE)
    void a.cron.tick()
    await clock.flush()
    const [first] = await taskStore.list({ scheduleId: 'hourly' })
    b.tasks.wake()
    await clock.flush()
    expect(await taskStore.get(first?.id ?? '')).toMatchObject({ status: 'completed' })
    expect(await b.cron.tick()).toEqual([])
    expect(await taskStore.list({ scheduleId: 'hourly' })).toHaveLength(1)
    expect(await scheduleStore.get('hourly')).toMatchObject({ nextRunAt: T0 + 120 * MINUTE })
    await b.stop()
  })

  it('keeps a single node’s task ids generated, not derived from the slot', async () => {
    const clock = createFakeClock(T0)
    const scheduler = createScheduler({ clock, generateId: () => 'generated' })
    scheduler.tasks.register('gc', async () => 'collected')
    await scheduler.cron.create({
      id: 'hourly',
      schedule: '0 * * * *',
      taskType: 'gc',
      args: {},
      enabled: true,
    })
    await clock.advance(60 * MINUTE)
    expect((await scheduler.cron.tick()).map((t) => t.id)).toEqual(['generated'])
  })

  it('enqueues one task per slot with both cron loops running', async () => {
    const { clock, taskStore, node } = cluster()
    const a = node('a')
    const b = node('b')
    await a.cron.create({
      id: 'every-minute',
      schedule: '* * * * *',
      taskType: 'gc',
      args: {},
      enabled: true,
    })
    await a.start()
    await b.start()
    await clock.advance(10 * MINUTE)
    const tasks = await taskStore.list({ scheduleId: 'every-minute' })
    expect(tasks).toHaveLength(10)
    expect(tasks.every((t) => t.status === 'completed')).toBe(true)
    await a.stop()
    await b.stop()
  })

  it('keeps an update another node wrote while a tick moved the schedule on', async () => {
    const inner = createMemoryScheduleStore()
    let interleave: (() => Promise<void>) | undefined
    // Runs `interleave` (another node's update) between a tick's read and its write.
    const scheduleStore: ScheduleStore = {
      ...inner,
      putIf: async (schedule, expected) => {
        const other = interleave
        interleave = undefined
        await other?.()
        return inner.putIf?.(schedule, expected) ?? false
      },
    }
    const { clock, node } = cluster({ scheduleStore })
    const a = node('a')
    const b = node('b')
    await a.cron.create({
      id: 'hourly',
      schedule: '0 * * * *',
      taskType: 'gc',
      args: {},
      enabled: true,
    })
    await clock.advance(60 * MINUTE)
    interleave = async () => {
      const current = await inner.get('hourly')
      if (current) await inner.put({ ...current, args: { dry_run: true }, updatedAt: clock.now() })
    }
    const [task] = await b.cron.tick()
    const stored = await inner.get('hourly')
    expect(stored).toMatchObject({
      args: { dry_run: true },
      lastTaskId: task?.id,
      nextRunAt: T0 + 120 * MINUTE,
    })
    await a.stop()
    await b.stop()
  })

  it('makes only one of two nodes creating one id at once succeed', async () => {
    const { node } = cluster()
    const a = node('a')
    const b = node('b')
    const input = { id: 'nightly', schedule: '0 3 * * *', taskType: 'gc', args: {}, enabled: true }
    const results = await Promise.allSettled([a.cron.create(input), b.cron.create(input)])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
  })
})
