import { describe, expect, it } from 'vitest'
import { isSchedulerError } from './errors'
import { createMemoryTaskStore } from './memory-task-store'
import type { Task } from './task'
import { createTaskRunner } from './task-runner'
import type { TaskRunnerOptions } from './task-runner-types'
import type { TaskStore } from './task-store'
import { createControlledHandler } from './testing/controlled-handler'
import { createFakeClock, type FakeClock } from './testing/fake-clock'

const POLL_MS = 1_000

/** Runners on one store and one clock, each a node; `dead` holds the node ids called dead. */
function cluster() {
  const clock = createFakeClock()
  const store = createMemoryTaskStore()
  const dead = new Set<string>()
  const node = (nodeId: string, options: Partial<TaskRunnerOptions> = {}) => {
    const work = createControlledHandler({ endOnAbort: true })
    const runner = createTaskRunner({
      clock,
      store,
      nodeId,
      pollMs: POLL_MS,
      isNodeAlive: async (id) => !dead.has(id),
      ...options,
    })
    runner.register('work', work.handler)
    return { runner, work }
  }
  return { clock, store, dead, node }
}

const running = (store: TaskStore) => store.list({ status: ['running'] })

/** Ends every run in progress on these nodes until no task is pending or running. */
async function drain(
  clock: FakeClock,
  store: TaskStore,
  ...works: ReturnType<typeof createControlledHandler>[]
) {
  for (let round = 0; round < 100; round++) {
    if ((await store.list({ status: ['pending', 'running'] })).length === 0) return
    for (const task of await running(store)) {
      for (const work of works) work.runs.get(task.id)?.resolve()
    }
    await clock.advance(POLL_MS)
  }
  throw new Error('tasks never finished')
}

describe('task runners on several nodes sharing one store', () => {
  it('runs each task exactly once across the nodes, wherever it was enqueued', async () => {
    const { clock, store, node } = cluster()
    const a = node('a')
    const b = node('b')
    await a.runner.start()
    await b.runner.start()
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push((await a.runner.enqueue('work', { i })).id)
    await clock.flush()
    expect(a.work.order).toHaveLength(1)
    // B hears of A's tasks at its next poll.
    await clock.advance(POLL_MS)
    expect(b.work.order).toHaveLength(1)
    await drain(clock, store, a.work, b.work)
    expect([...a.work.order, ...b.work.order].sort()).toEqual([...ids].sort())
    expect(b.work.order.length).toBeGreaterThan(0)
    const done = await store.list()
    expect(done.map((t) => t.status)).toEqual(Array(6).fill('completed'))
    for (const task of done) {
      expect(task.owner).toBe(a.work.order.includes(task.id) ? 'a' : 'b')
    }
  })

  it('lets exactly one of two nodes claim a task both see at once', async () => {
    const { clock, store, node } = cluster()
    const a = node('a')
    const b = node('b')
    await a.runner.start()
    await b.runner.start()
    for (let i = 0; i < 5; i++) {
      const id = `t${i}`
      // Written by a third node: both hear of it at once and look before either claims.
      await store.put({
        id,
        taskType: 'work',
        status: 'pending',
        args: {},
        progress: 0,
        createdAt: clock.now(),
      })
      a.runner.wake()
      b.runner.wake()
      await clock.flush()
      const runs = [...a.work.order, ...b.work.order].filter((ran) => ran === id)
      expect(runs).toEqual([id])
      a.work.runs.get(id)?.resolve()
      b.work.runs.get(id)?.resolve()
      await clock.flush()
    }
    expect(a.work.order.length + b.work.order.length).toBe(5)
    expect(new Set((await store.list()).map((t) => t.status))).toEqual(new Set(['completed']))
  })

  it('does not take over a live node’s running task when starting', async () => {
    const { clock, store, node } = cluster()
    const a = node('a')
    await a.runner.start()
    const task = await a.runner.enqueue('work', {})
    await clock.flush()
    const b = node('b')
    await b.runner.start()
    await clock.advance(5 * POLL_MS)
    expect(b.work.order).toEqual([])
    expect(await store.get(task.id)).toMatchObject({ status: 'running', owner: 'a' })
    a.work.run(task.id).resolve('ok')
    await clock.flush()
    expect(await store.get(task.id)).toMatchObject({ status: 'completed', result: 'ok' })
    expect(b.work.order).toEqual([])
  })

  it('runs again the running tasks of a node that died, at start and while running', async () => {
    const { clock, store, dead, node } = cluster()
    const a = node('a', { concurrency: 2 })
    await a.runner.start()
    const first = await a.runner.enqueue('work', {})
    const second = await a.runner.enqueue('work', {})
    await clock.flush()
    expect(a.work.order).toEqual([first.id, second.id])
    // A stops answering (its process is gone, nothing written); B starts and sees it dead.
    dead.add('a')
    const b = node('b')
    await b.runner.start()
    await clock.flush()
    expect(b.work.order).toEqual([first.id])
    expect(await store.get(first.id)).toMatchObject({ status: 'running', owner: 'b' })
    b.work.run(first.id).resolve()
    await clock.flush()
    expect(b.work.order).toEqual([first.id, second.id])

    // C is running when B dies: its poll recovers B's task.
    const c = node('c')
    await c.runner.start()
    await clock.advance(3 * POLL_MS)
    expect(c.work.order).toEqual([])
    dead.add('b')
    await clock.advance(POLL_MS)
    expect(c.work.order).toEqual([second.id])
    c.work.run(second.id).resolve()
    await clock.flush()
    expect((await store.list()).map((t) => t.status)).toEqual(['completed', 'completed'])
  })

  it('recovers a dead node’s task while wakes keep coming faster than the poll', async () => {
    // Other nodes' writes wake a runner about every second, more often than it polls.
    const { clock, store, dead, node } = cluster()
    const a = node('a')
    const b = node('b')
    await a.runner.start()
    await b.runner.start()
    const task = await a.runner.enqueue('work', {})
    await clock.flush()
    expect(a.work.order).toEqual([task.id])
    dead.add('a')
    for (let i = 0; i < 8 && b.work.order.length === 0; i++) {
      await clock.advance(POLL_MS / 2)
      b.runner.wake()
      await clock.flush()
    }
    expect(b.work.order).toEqual([task.id])
    expect(await store.get(task.id)).toMatchObject({ status: 'running', owner: 'b' })
  })

  it('recovers its own node id’s running tasks at start (a restarted process)', async () => {
    const { clock, store, node } = cluster()
    const before = node('a')
    await before.runner.start()
    const task = await before.runner.enqueue('work', {})
    await clock.flush()
    const after = node('a')
    await after.runner.start()
    await clock.flush()
    expect(after.work.order).toEqual([task.id])
    expect(await store.get(task.id)).toMatchObject({ status: 'running', owner: 'a' })
  })

  it('aborts the owner’s handler when another node cancels, keeping the task cancelled', async () => {
    const { clock, store, node } = cluster()
    const a = node('a')
    const b = node('b')
    await a.runner.start()
    await b.runner.start()
    const task = await a.runner.enqueue('work', {})
    await clock.flush()
    const changes: Task[] = []
    const cancelled = await b.runner.cancel(task.id)
    expect(cancelled).toMatchObject({ status: 'cancelled' })
    const { signal } = a.work.run(task.id).context
    expect(signal.aborted).toBe(false)
    const waited = a.runner.waitFor(task.id).then((t) => changes.push(t))
    await clock.advance(POLL_MS)
    expect(signal.aborted).toBe(true)
    expect(isSchedulerError(signal.reason, 'CANCELLED')).toBe(true)
    await waited
    expect(changes.map((t) => t.status)).toEqual(['cancelled'])
    await clock.advance(3 * POLL_MS)
    expect(await store.get(task.id)).toMatchObject({ status: 'cancelled' })
    expect(await a.runner.get(task.id)).toMatchObject({ status: 'cancelled' })
  })

  it('keeps a cancel of another node over the owner’s progress and completion writes', async () => {
    // No poll: the owner learns of the cancel only from its own failing writes.
    const { clock, store, node } = cluster()
    const a = node('a', { pollMs: 2_000_000_000, progressWriteIntervalMs: 0 })
    const b = node('b', { pollMs: 2_000_000_000 })
    await a.runner.start()
    await b.runner.start()
    const first = await a.runner.enqueue('work', {})
    await clock.flush()
    await b.runner.cancel(first.id)
    const run = a.work.run(first.id)
    run.context.reportProgress(0.5)
    await clock.flush()
    expect(run.context.signal.aborted).toBe(true)
    expect(await store.get(first.id)).toMatchObject({ status: 'cancelled', progress: 0 })

    const second = await a.runner.enqueue('work', {})
    await clock.flush()
    await b.runner.cancel(second.id)
    a.work.run(second.id).resolve('done anyway')
    await clock.flush()
    expect(await store.get(second.id)).toMatchObject({ status: 'cancelled' })
    expect(await store.get(second.id)).not.toHaveProperty('result')
  })

  it('resolves waitFor on one node for a task another node runs', async () => {
    const { clock, node } = cluster()
    const a = node('a')
    const b = node('b')
    await a.runner.start()
    await b.runner.start()
    const task = await b.runner.enqueue('work', {})
    await clock.flush()
    const owner = b.work.runs.has(task.id) ? b : a
    let done: Task | undefined
    const waiter = a.runner.waitFor(task.id).then((t) => (done = t))
    owner.work.run(task.id).resolve(7)
    await clock.advance(POLL_MS)
    await waiter
    expect(done).toMatchObject({ status: 'completed', result: 7 })
  })

  it('creates a task of a given id on exactly one of two nodes, CONFLICT on the other', async () => {
    const { node } = cluster()
    const a = node('a')
    const b = node('b')
    const results = await Promise.allSettled([
      a.runner.enqueue('work', { from: 'a' }, { id: 'slot-1' }),
      b.runner.enqueue('work', { from: 'b' }, { id: 'slot-1' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    const failed = results.find((r) => r.status === 'rejected')
    expect(isSchedulerError(failed?.reason, 'CONFLICT')).toBe(true)
    // Over a store without putIf, the runner alone writes: it looks first.
    const { putIf: _putIf, ...plain } = createMemoryTaskStore()
    const alone = createTaskRunner({ store: plain })
    alone.register('work', async () => undefined)
    expect(await alone.enqueue('work', {}, { id: 'x' })).toMatchObject({ id: 'x' })
    await expect(alone.enqueue('work', {}, { id: 'x' })).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('refuses a node id over a store without compare-and-set', () => {
    const { putIf: _putIf, ...plain } = createMemoryTaskStore()
    expect(() => createTaskRunner({ store: plain, nodeId: 'a' })).toThrow(/putIf/)
  })
})
