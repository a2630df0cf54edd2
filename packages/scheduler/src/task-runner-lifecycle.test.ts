import { describe, expect, it } from 'vitest'
import { isSchedulerError, type SchedulerError } from './errors'
import { createMemoryTaskStore } from './memory-task-store'
import type { TaskStore } from './task-store'
import { createRunnerHarness, schedulerRejection } from './testing/runner-harness'

describe('createTaskRunner: cancel, restart, stop, retention, store failures', () => {
  it('cancels a pending task, which then never runs', async () => {
    const { runner, clock, work, statuses } = createRunnerHarness()
    const task = await runner.enqueue('work', {})
    const cancelled = await runner.cancel(task.id)
    expect(cancelled).toMatchObject({ id: task.id, status: 'cancelled', finishedAt: clock.now() })
    await runner.start()
    await clock.advance(1000)
    expect(work.runs.size).toBe(0)
    expect(statuses(task.id)).toEqual(['pending', 'cancelled'])
  })

  it('cancels a running task through its AbortSignal; it ends cancelled, not failed', async () => {
    const { runner, clock, work, statuses } = createRunnerHarness()
    await runner.start()
    const task = await runner.enqueue('work', {})
    await clock.flush()
    const { context, reject } = work.run(task.id)
    context.signal.addEventListener('abort', () => reject(context.signal.reason))
    expect(await runner.cancel(task.id)).toMatchObject({ status: 'cancelled' })
    expect(context.signal.aborted).toBe(true)
    expect(isSchedulerError(context.signal.reason, 'CANCELLED')).toBe(true)
    await clock.flush()
    expect(await runner.get(task.id)).toMatchObject({ status: 'cancelled' })
    expect(statuses(task.id)).toEqual(['pending', 'running', 'cancelled'])
  })

  it('holds the slot of a cancelled task until its handler returns, and keeps it cancelled', async () => {
    const { runner, clock, work } = createRunnerHarness()
    await runner.start()
    const first = await runner.enqueue('work', {})
    const second = await runner.enqueue('work', {})
    await clock.flush()
    await runner.cancel(first.id)
    await clock.flush()
    expect(work.runs.has(second.id)).toBe(false)
    work.run(first.id).context.reportProgress(0.9)
    work.run(first.id).resolve('done anyway')
    await clock.flush()
    expect(await runner.get(first.id)).toMatchObject({ status: 'cancelled', progress: 0 })
    expect(await runner.get(first.id)).not.toHaveProperty('result')
    expect(work.runs.has(second.id)).toBe(true)
  })

  it('cancels a finished task, keeping its outcome; a second cancel changes nothing', async () => {
    const { runner, clock } = createRunnerHarness()
    runner.register('boom', async () => {
      throw new Error('boom')
    })
    await runner.start()
    const task = await runner.enqueue('boom', {})
    const failed = await runner.waitFor(task.id)
    await clock.advance(1000)
    const cancelled = await runner.cancel(task.id)
    expect(cancelled).toEqual({ ...failed, status: 'cancelled' })
    await clock.advance(1000)
    expect(await runner.cancel(task.id)).toEqual(cancelled)
  })

  it('answers NOT_FOUND for an unknown task', async () => {
    const { runner } = createRunnerHarness()
    expect((await schedulerRejection(runner.get('nope'))).code).toBe('NOT_FOUND')
    const err = await schedulerRejection(runner.cancel('nope'))
    expect(err).toMatchObject({ code: 'NOT_FOUND', id: 'nope', message: 'no such task: nope' })
  })

  it('after a restart, puts tasks found running back to pending and runs them again', async () => {
    const store = createMemoryTaskStore()
    const before = createRunnerHarness({ store })
    await before.runner.start()
    const task = await before.runner.enqueue('work', { n: 1 })
    await before.clock.flush()
    before.work.run(task.id).context.reportProgress(0.5)
    await before.clock.advance(5000)
    expect((await store.get(task.id))?.status).toBe('running')
    // The process dies here: no stop. A new one opens the same store.
    const after = createRunnerHarness({ store })
    await after.runner.start()
    await after.clock.flush()
    expect(after.statuses(task.id)).toEqual(['pending', 'running'])
    expect(after.work.run(task.id).context.args).toEqual({ n: 1 })
    expect(await after.runner.get(task.id)).toMatchObject({ status: 'running', progress: 0 })
    after.work.run(task.id).resolve()
    expect((await after.runner.waitFor(task.id)).status).toBe('completed')
  })

  it('stop aborts running tasks, which go back to pending and run on the next start', async () => {
    const { runner, clock, work, statuses } = createRunnerHarness()
    await runner.start()
    const task = await runner.enqueue('work', {})
    await clock.flush()
    const { context, reject } = work.run(task.id)
    context.signal.addEventListener('abort', () => reject(context.signal.reason))
    await runner.stop()
    expect(isSchedulerError(context.signal.reason, 'STOPPED')).toBe(true)
    expect(await runner.get(task.id)).toMatchObject({ status: 'pending', progress: 0 })
    expect(await runner.get(task.id)).not.toHaveProperty('startedAt')
    await runner.start()
    await clock.flush()
    work.run(task.id).resolve()
    expect((await runner.waitFor(task.id)).status).toBe('completed')
    expect(statuses(task.id)).toEqual(['pending', 'running', 'pending', 'running', 'completed'])
  })

  it('keeps at most maxCount finished tasks, none older than maxAgeMs, and every running one', async () => {
    const { runner, clock, work } = createRunnerHarness({
      concurrency: 2,
      retention: { maxCount: 3, maxAgeMs: 60_000 },
    })
    runner.register('quick', async () => 'ok')
    await runner.start()
    const blocker = await runner.enqueue('work', {})
    await clock.flush()
    expect(work.runs.has(blocker.id)).toBe(true)
    const quick: string[] = []
    for (let i = 0; i < 5; i++) {
      const task = await runner.enqueue('quick', {})
      await runner.waitFor(task.id)
      quick.push(task.id)
      await clock.advance(1000)
    }
    expect((await runner.list()).map((t) => t.id)).toEqual([blocker.id, ...quick.slice(2)])
    await clock.advance(120_000)
    const last = await runner.enqueue('quick', {})
    await runner.waitFor(last.id)
    expect((await runner.list()).map((t) => t.id)).toEqual([blocker.id, last.id])
  })

  it('wraps what the store throws as STORE_ERROR, keeping the cause', async () => {
    const cause = new Error('LEVEL_IO_ERROR')
    const store: TaskStore = {
      ...createMemoryTaskStore(),
      put: async () => {
        throw cause
      },
    }
    const { runner } = createRunnerHarness({ store })
    const err = await schedulerRejection(runner.enqueue('work', {}))
    expect(err).toMatchObject({ code: 'STORE_ERROR', cause })
    expect(err.message).toMatch(/writing task .* failed: LEVEL_IO_ERROR/)
  })

  it('reports a failed dequeue to onError and tries again later', async () => {
    const inner = createMemoryTaskStore()
    let failures = 0
    const store: TaskStore = {
      ...inner,
      list: async (filter) => {
        const dequeuing = filter?.status?.length === 1 && filter.status[0] === 'pending'
        if (dequeuing && failures-- > 0) throw new Error('busy')
        return inner.list(filter)
      },
    }
    const errors: SchedulerError[] = []
    const { runner, clock, work } = createRunnerHarness({ store, onError: (e) => errors.push(e) })
    await runner.start()
    failures = 1
    const task = await runner.enqueue('work', {})
    await clock.flush()
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['STORE_ERROR', 'listing tasks failed: busy'],
    ])
    expect(work.runs.has(task.id)).toBe(false)
    await clock.advance(4999)
    expect(work.runs.has(task.id)).toBe(false)
    await clock.advance(1)
    expect(work.runs.has(task.id)).toBe(true)
  })

  it('fails a stored task whose type has no handler', async () => {
    const store = createMemoryTaskStore()
    const { runner } = createRunnerHarness({ store })
    await store.put({
      id: 'orphan',
      taskType: 'retired',
      status: 'pending',
      args: {},
      progress: 0,
      createdAt: 0,
    })
    await runner.start()
    expect(await runner.waitFor('orphan')).toMatchObject({
      status: 'failed',
      error: 'no handler is registered for task type "retired"',
    })
  })
})
