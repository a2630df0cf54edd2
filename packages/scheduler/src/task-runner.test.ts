import { describe, expect, it } from 'vitest'
import { createMemoryTaskStore } from './memory-task-store'
import { createTaskRunner } from './task-runner'
import type { TaskStore } from './task-store'
import { createRunnerHarness, schedulerRejection } from './testing/runner-harness'

describe('createTaskRunner', () => {
  it('enqueues a pending task with normalised args and runs nothing before start', async () => {
    const { runner, clock, store, work } = createRunnerHarness()
    runner.register('gc', async () => undefined)
    const task = await runner.enqueue('gc', {})
    expect(task).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      taskType: 'gc',
      status: 'pending',
      args: { dry_run: false },
      progress: 0,
      createdAt: clock.now(),
    })
    await clock.advance(60_000)
    expect(await store.get(task.id)).toEqual(task)
    expect(work.runs.size).toBe(0)
  })

  it('runs tasks oldest first, one at a time by default', async () => {
    const { runner, clock, work } = createRunnerHarness()
    const ids: string[] = []
    for (let i = 0; i < 4; i++) ids.push((await runner.enqueue('work', { i })).id)
    await runner.start()
    await clock.flush()
    expect(work.order).toEqual(ids.slice(0, 1))
    for (const id of ids) {
      expect((await runner.get(id)).status).toBe('running')
      work.run(id).resolve()
      await clock.flush()
    }
    expect(work.order).toEqual(ids)
    expect(work.peak).toBe(1)
    expect((await runner.list()).map((t) => t.status)).toEqual(Array(4).fill('completed'))
  })

  it('runs up to `concurrency` tasks at once, never more', async () => {
    const { runner, clock, work } = createRunnerHarness({ concurrency: 3 })
    await runner.start()
    const ids: string[] = []
    for (let i = 0; i < 8; i++) ids.push((await runner.enqueue('work', {})).id)
    await clock.flush()
    expect(work.runs.size).toBe(3)
    // End them newest-started first, to show that any freed slot is refilled.
    while ((await runner.list({ status: ['pending', 'running'] })).length > 0) {
      const running = await runner.list({ status: ['running'] })
      expect(running.length).toBeLessThanOrEqual(3)
      work.run(running[running.length - 1]?.id ?? '').resolve()
      await clock.flush()
    }
    expect(work.peak).toBe(3)
    expect(new Set(work.order)).toEqual(new Set(ids))
  })

  it('completes a task with progress 1, its JSON result and its times', async () => {
    const { runner, clock, work } = createRunnerHarness()
    await runner.start()
    const task = await runner.enqueue('work', {})
    await clock.advance(1000)
    work.run(task.id).context.reportProgress(0.5)
    await clock.advance(4000)
    work.run(task.id).resolve({ reclaimed_bytes: 42 })
    const done = await runner.waitFor(task.id)
    expect(done).toEqual({
      ...task,
      status: 'completed',
      progress: 1,
      startedAt: task.createdAt,
      finishedAt: task.createdAt + 5000,
      result: { reclaimed_bytes: 42 },
    })
  })

  it('fails a task whose handler throws, with its message, synchronously or not', async () => {
    const { runner } = createRunnerHarness()
    runner.register('async-boom', async () => {
      throw new Error('disk full')
    })
    runner.register('sync-boom', () => {
      throw new TypeError('bad state')
    })
    await runner.start()
    const a = await runner.enqueue('async-boom', {})
    const b = await runner.enqueue('sync-boom', {})
    expect(await runner.waitFor(a.id)).toMatchObject({ status: 'failed', error: 'disk full' })
    expect(await runner.waitFor(b.id)).toMatchObject({ status: 'failed', error: 'bad state' })
    expect(await runner.get(b.id)).toHaveProperty('finishedAt')
  })

  it('refuses unknown task types and invalid args, storing nothing', async () => {
    const { runner, store } = createRunnerHarness()
    runner.register('gc', async () => undefined)
    const unknown = await schedulerRejection(runner.enqueue('defrag', {}))
    expect(unknown.code).toBe('UNKNOWN_TASK_TYPE')
    expect(unknown.message).toMatch(/"defrag" \(registered: gc, work\)/)
    const invalid = await schedulerRejection(runner.enqueue('gc', { dry_run: 'yes' }))
    expect(invalid.code).toBe('INVALID_ARGS')
    expect(invalid.issues?.[0]?.path).toBe('dry_run')
    expect(await store.list()).toEqual([])
  })

  it('shows live progress with an absolute eta, writing the store at most once per interval', async () => {
    const inner = createMemoryTaskStore()
    const progressWrites: number[] = []
    const store: TaskStore = {
      ...inner,
      put: async (task) => {
        if (task.status === 'running' && task.progress > 0) progressWrites.push(task.progress)
        await inner.put(task)
      },
    }
    const { runner, clock, work } = createRunnerHarness({ store, progressWriteIntervalMs: 1000 })
    await runner.start()
    const task = await runner.enqueue('work', {})
    await clock.flush()
    const { context } = work.run(task.id)
    await clock.advance(10_000)
    context.reportProgress(0.25)
    // A quarter in 10 s: done 30 s from now, as an absolute Unix-ms time.
    expect(await runner.get(task.id)).toMatchObject({ progress: 0.25, etaMs: clock.now() + 30_000 })
    for (let i = 1; i <= 50; i++) {
      await clock.advance(100)
      context.reportProgress(0.25 + i * 0.01)
    }
    expect((await runner.list())[0]).toMatchObject({ progress: 0.75 })
    await clock.flush()
    expect(progressWrites.length).toBeGreaterThanOrEqual(5)
    expect(progressWrites.length).toBeLessThanOrEqual(7)
    expect((await inner.get(task.id))?.progress).toBeGreaterThan(0.25)
    work.run(task.id).resolve()
    expect(await runner.waitFor(task.id)).not.toHaveProperty('etaMs')
  })

  it('has no eta before the first progress report', async () => {
    const { runner, clock, work } = createRunnerHarness()
    await runner.start()
    const task = await runner.enqueue('work', {})
    await clock.advance(5000)
    expect(await runner.get(task.id)).not.toHaveProperty('etaMs')
    work.run(task.id).context.reportProgress(0)
    expect(await runner.get(task.id)).not.toHaveProperty('etaMs')
  })

  it('fails a task whose handler reports progress outside 0..1', async () => {
    const { runner } = createRunnerHarness()
    runner.register('overshoot', async ({ reportProgress }) => reportProgress(1.5))
    await runner.start()
    const task = await runner.enqueue('overshoot', {})
    expect(await runner.waitFor(task.id)).toMatchObject({
      status: 'failed',
      error: 'progress must be a number from 0 to 1, got 1.5',
    })
  })

  it('lets a waitFor be abandoned through its signal', async () => {
    const { runner } = createRunnerHarness()
    const task = await runner.enqueue('work', {})
    const controller = new AbortController()
    const waiting = runner.waitFor(task.id, { signal: controller.signal })
    controller.abort(new Error('gave up'))
    await expect(waiting).rejects.toThrow('gave up')
    await expect(runner.waitFor('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses bad options and bad registrations at once', () => {
    expect(() => createTaskRunner({ concurrency: 0 })).toThrow(RangeError)
    expect(() => createTaskRunner({ concurrency: 1.5 })).toThrow(RangeError)
    expect(() => createTaskRunner({ progressWriteIntervalMs: -1 })).toThrow(RangeError)
    expect(() => createTaskRunner({ retention: { maxCount: -1 } })).toThrow(RangeError)
    const runner = createTaskRunner()
    runner.register('gc', () => undefined)
    expect(() => runner.register('gc', () => undefined)).toThrow(/already registered/)
    expect(() => runner.register('', () => undefined)).toThrow(TypeError)
  })

  it('validates args with a custom parser when one is registered', async () => {
    const { runner } = createRunnerHarness()
    runner.register('echo', ({ args }) => args, {
      parseArgs: (args) => {
        const { text } = args as { text?: unknown }
        if (typeof text !== 'string') throw new Error('text is required')
        return { text: text.toUpperCase() }
      },
    })
    expect(runner.parseArgs('echo', { text: 'hi' })).toEqual({ text: 'HI' })
    expect(() => runner.parseArgs('echo', {})).toThrow('text is required')
    expect(runner.handles('echo')).toBe(true)
    expect(runner.handles('other')).toBe(false)
  })
})
