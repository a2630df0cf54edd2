import { SchedulerError } from './errors'
import { applyForeignRecord } from './internal/foreign-record'
import { createHandlerRegistry } from './internal/handler-registry'
import { createPollLoop } from './internal/poll-loop'
import { runnerSettings } from './internal/runner-settings'
import { createRunningTask, createTaskContext, type RunningTask } from './internal/running-task'
import { createSerialQueue } from './internal/serial-queue'
import { CAS_ATTEMPTS, createTaskWrite } from './internal/store-writes'
import * as records from './internal/task-records'
import { isOrphaned } from './internal/task-ownership'
import { createTaskWaiters } from './internal/task-waiters'
import { createUuidV7Generator } from './internal/uuid-v7'
import { isTerminalStatus, TERMINAL_TASK_STATUSES, type Task } from './task'
import type { TaskHandler } from './task-handler'
import { selectExpiredTasks } from './task-retention'
import type { TaskRunner, TaskRunnerOptions } from './task-runner-types'

const RETRY_DELAY_MS = 5_000

/**
 * Makes a task runner. Nothing runs until {@link TaskRunner.start}.
 *
 * @example
 * const runner = createTaskRunner({ store: createMemoryTaskStore() })
 * runner.register('gc', async ({ args, signal, reportProgress }) => collect(args.dry_run, signal, reportProgress))
 * await runner.start()
 * const task = await runner.enqueue('gc', { dry_run: true })
 * console.log((await runner.waitFor(task.id)).status) // 'completed'
 */
export function createTaskRunner(options: TaskRunnerOptions = {}): TaskRunner {
  const { concurrency, progressInterval, retention, pollMs, clock, store } = runnerSettings(options)
  const { nodeId, isNodeAlive } = options
  const writeTask = createTaskWrite(store, nodeId !== undefined)
  const generateId = options.generateId ?? createUuidV7Generator(() => clock.now())
  const queue = createSerialQueue()
  const handlers = createHandlerRegistry()
  const active = new Map<string, RunningTask>()
  const waiters = createTaskWaiters()
  let started = false
  let starting: Promise<void> | undefined
  let pumping = false
  let pumpAgain = false
  let cancelRetry: (() => void) | undefined

  const report = (err: unknown): void => {
    const error =
      err instanceof SchedulerError
        ? err
        : new SchedulerError('STORE_ERROR', records.errorMessage(err), { cause: err })
    options.onError?.(error)
  }

  const notify = (task: Task): void => {
    try {
      options.onChange?.(structuredClone(task))
    } catch (err) {
      report(err)
    }
    waiters.notify(task)
  }

  /** Removes finished tasks beyond the retention; runs inside the queue. */
  const prune = async (): Promise<void> => {
    const finished = await store.list({ status: TERMINAL_TASK_STATUSES })
    const expired = selectExpiredTasks(finished, clock.now(), retention).filter(
      (id) => !active.has(id),
    )
    if (expired.length > 0) await store.delete(expired)
  }

  /** The active entry of task `id`, unless another node has taken the run over. */
  const live = (id: string): RunningTask | undefined => {
    const entry = active.get(id)
    return entry?.released ? undefined : entry
  }

  /** Takes in what another node did to the record of `entry`; runs inside the queue. */
  const noticeForeign = async (entry: RunningTask, record?: Task): Promise<void> => {
    const stored = record ?? (await store.get(entry.task.id))
    // The cancelling node told its listeners; here only waiters learn of it.
    if (applyForeignRecord(entry, stored, nodeId) === 'cancelled') waiters.notify(entry.task)
  }

  const finish = async (entry: RunningTask, outcome: { ok: boolean; value: unknown }) => {
    entry.done = true
    active.delete(entry.task.id)
    const now = clock.now()
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      // A cancelled task was stored as such when the cancel came; its handler's end changes
      // nothing. Nor does the end of a run another node took over.
      if (entry.cancelled || entry.released) return prune()
      let next: Task
      if (outcome.ok) next = records.toCompleted(entry.task, now, outcome.value)
      else if (entry.stopping) next = records.toPending(entry.task)
      else next = records.toFailed(entry.task, now, outcome.value)
      if (await writeTask(next, entry.stored)) {
        // Prune before telling anyone, so a waiter never sees more tasks than the retention keeps.
        await prune()
        notify(next)
        return
      }
      await noticeForeign(entry)
    }
    throw new SchedulerError('STORE_ERROR', `task ${entry.task.id}: its end kept conflicting`, {
      id: entry.task.id,
    })
  }

  const execute = async (entry: RunningTask, handler: TaskHandler<never>): Promise<void> => {
    const context = createTaskContext(entry, {
      clock,
      progressWriteIntervalMs: progressInterval,
      writeProgress: (live) => {
        queue
          .run(async () => {
            if (live.done || live.cancelled || live.released) return
            const next = live.task
            if (await writeTask(next, live.stored)) live.stored = next
            else await noticeForeign(live)
          })
          .catch(report)
      },
    })
    let outcome: { ok: boolean; value: unknown }
    try {
      outcome = { ok: true, value: await handler(context) }
    } catch (err) {
      outcome = { ok: false, value: err }
    }
    await queue.run(() => finish(entry, outcome)).catch(report)
    pump()
  }

  /** Starts as many pending tasks as there are free slots; runs inside the queue. */
  const claim = async (): Promise<void> => {
    if (!started || active.size >= concurrency) return
    const pending = await store.list({ status: ['pending'] })
    pending.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    for (const task of pending) {
      if (!started || active.size >= concurrency) return
      if (active.has(task.id)) continue
      const handler = handlers.find(task.taskType)
      if (handler === undefined) {
        const failed = records.toFailed(
          task,
          clock.now(),
          `no handler is registered for task type ${JSON.stringify(task.taskType)}`,
        )
        if (await writeTask(failed, task)) notify(failed)
        continue
      }
      const running = records.toRunning(task, clock.now(), nodeId)
      // Another node claimed it first.
      if (!(await writeTask(running, task))) continue
      const entry = createRunningTask(running, clock.now())
      active.set(task.id, entry)
      notify(running)
      // The handler starts after this job, never inside the queue.
      entry.settled = Promise.resolve().then(() => execute(entry, handler.handler))
    }
  }

  /** Puts running tasks whose run is over (see `isOrphaned`) back to pending; in the queue. */
  const recover = async (): Promise<void> => {
    const alive = new Map<string, Promise<boolean>>()
    const ownership = {
      nodeId,
      isNodeAlive:
        isNodeAlive &&
        ((owner: string) =>
          isNodeAlive(owner).catch((err: unknown) => {
            report(err)
            return true
          })),
    }
    for (const task of await store.list({ status: ['running'] })) {
      if (active.has(task.id) || !(await isOrphaned(task, ownership, alive))) continue
      const pending = records.toPending(task)
      if (await writeTask(pending, task)) notify(pending)
    }
  }

  /**
   * Takes in what other nodes did to the store; in the queue. Dead nodes' tasks are looked
   * for at most once per `pollMs` (`timed`), however often wakes come: a wake may come at
   * every commit of a shared database, and steady wakes must not put recovery off.
   */
  const sync = async (timed: boolean): Promise<void> => {
    if (!started) return
    for (const entry of [...active.values()]) {
      if (entry.done || entry.cancelled || entry.released) continue
      const stored = await store.get(entry.task.id)
      if (JSON.stringify(stored) !== JSON.stringify(entry.stored)) {
        await noticeForeign(entry, stored)
      }
    }
    if (nodeId !== undefined && timed) await recover()
    // Tasks awaited here may run on another node, whose writes this one hears of only here.
    for (const id of waiters.ids()) {
      if (live(id)) continue
      const task = await store.get(id)
      if (task !== undefined && isTerminalStatus(task.status)) waiters.notify(task)
    }
  }

  const poll = createPollLoop({
    clock,
    pollMs,
    running: () => started,
    job: async (timed) => {
      await queue.run(() => sync(timed)).catch(report)
      pump()
    },
  })

  function pump(): void {
    if (!started) return
    if (pumping) {
      pumpAgain = true
      return
    }
    pumping = true
    void (async () => {
      try {
        do {
          pumpAgain = false
          await queue.run(claim)
        } while (pumpAgain && started)
      } catch (err) {
        report(err)
        cancelRetry?.()
        cancelRetry = clock.setTimer(pump, RETRY_DELAY_MS)
      } finally {
        pumping = false
      }
    })()
  }

  const get = async (id: string): Promise<Task> => {
    const entry = live(id)
    if (entry) return structuredClone(entry.task)
    const task = await store.get(id)
    if (task === undefined) throw new SchedulerError('NOT_FOUND', `no such task: ${id}`, { id })
    return task
  }

  return {
    register(taskType, handler, registerOptions = {}) {
      handlers.add(taskType, handler as TaskHandler<never>, registerOptions.parseArgs)
      pump()
    },

    handles: (taskType) => handlers.has(taskType),

    parseArgs: (taskType, args) => handlers.require(taskType).parseArgs(args),

    async enqueue(taskType, args, enqueueOptions = {}) {
      const parsedArgs = handlers.require(taskType).parseArgs(args)
      const { scheduleId, id } = enqueueOptions
      if (id !== undefined && (typeof id !== 'string' || id === '')) {
        throw new TypeError(`a task id must be a non-empty string, got ${JSON.stringify(id)}`)
      }
      const task: Task = {
        id: id ?? generateId(),
        taskType,
        status: 'pending',
        args: parsedArgs,
        progress: 0,
        createdAt: clock.now(),
        ...(scheduleId === undefined ? {} : { scheduleId }),
      }
      await queue.run(async () => {
        if (id === undefined) return store.put(task)
        // Without putIf the store has one writer, this queue, so looking first is enough.
        const created =
          store.putIf === undefined
            ? (await store.get(id)) === undefined && (await store.put(task), true)
            : await store.putIf(task, undefined)
        if (!created) {
          throw new SchedulerError('CONFLICT', `a task with id ${id} already exists`, { id })
        }
      })
      notify(task)
      pump()
      return structuredClone(task)
    },

    get,

    async list(filter) {
      const tasks = await store.list(filter)
      return tasks.map((task) => {
        const entry = live(task.id)
        return entry ? structuredClone(entry.task) : task
      })
    },

    cancel: (id) =>
      queue.run(async () => {
        const now = clock.now()
        const entry = live(id)
        if (entry) {
          if (entry.cancelled) return structuredClone(entry.task)
          const cancelled = records.toCancelled(entry.task, now)
          if (await writeTask(cancelled, entry.stored)) {
            entry.task = cancelled
            entry.stored = cancelled
            entry.cancelled = true
            notify(cancelled)
            entry.controller.abort(
              new SchedulerError('CANCELLED', `task ${id} was cancelled`, { id }),
            )
            return structuredClone(cancelled)
          }
          await noticeForeign(entry)
          if (entry.cancelled) return structuredClone(entry.task)
        }
        // Not running here: another node may be writing the record, so retry on a conflict.
        for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
          const task = await store.get(id)
          if (task === undefined) {
            throw new SchedulerError('NOT_FOUND', `no such task: ${id}`, { id })
          }
          if (task.status === 'cancelled') return task
          const cancelled = records.toCancelled(task, now)
          if (!(await writeTask(cancelled, task))) continue
          await prune()
          notify(cancelled)
          return cancelled
        }
        throw new SchedulerError('CONFLICT', `task ${id} kept changing while being cancelled`, {
          id,
        })
      }),

    waitFor: (id, waitOptions = {}) => waiters.wait(id, () => get(id), waitOptions.signal),

    start() {
      if (started) return Promise.resolve()
      starting ??= queue
        .run(async () => {
          await recover()
          await prune()
          started = true
        })
        .finally(() => {
          starting = undefined
        })
      return starting.then(() => {
        pump()
        poll.arm()
      })
    },

    wake: () => poll.wake(),

    async stop() {
      started = false
      cancelRetry?.()
      cancelRetry = undefined
      poll.cancel()
      const stopping = await queue.run(async () => {
        started = false
        const entries = [...active.values()]
        for (const entry of entries) {
          entry.stopping = true
          entry.controller.abort(
            new SchedulerError(
              'STOPPED',
              `task ${entry.task.id} was interrupted: the scheduler is stopping`,
              { id: entry.task.id },
            ),
          )
        }
        return entries
      })
      await Promise.allSettled(stopping.map((entry) => entry.settled))
      await queue.idle()
    },
  }
}
