import { type Clock, systemClock } from './clock'
import { parseCronExpression } from './cron-expression'
import type { CronSchedule } from './cron-schedule'
import { isSchedulerError, SchedulerError } from './errors'
import { guardScheduleStore } from './internal/guarded-stores'
import { checkEnabled, checkScheduleId, checkTaskType } from './internal/schedule-fields'
import { writeSchedule } from './internal/schedule-writes'
import { slotTaskId } from './internal/slot-task-id'
import { createSerialQueue } from './internal/serial-queue'
import { createMemoryScheduleStore } from './memory-schedule-store'
import type { ScheduleStore } from './schedule-store'
import type { Task } from './task'
import type { TaskRunner } from './task-runner-types'

/** Everything a new schedule needs (the body of `POST /system/cron`). */
export interface CronScheduleInput {
  id: string
  /** Five fields, UTC. */
  schedule: string
  taskType: string
  args: Record<string, unknown>
  enabled: boolean
}

/**
 * The fields a partial update may change (the body of `PATCH /system/cron/{id}`); an absent or
 * `undefined` field is left as it is.
 */
export interface CronSchedulePatch {
  schedule?: string | undefined
  taskType?: string | undefined
  args?: Record<string, unknown> | undefined
  enabled?: boolean | undefined
}

/** Options of {@link createCronScheduler}. */
export interface CronSchedulerOptions {
  /** Validates each schedule's task type and args, and runs what schedules enqueue. */
  runner: Pick<TaskRunner, 'parseArgs' | 'enqueue' | 'list'>
  /** Where schedules persist; in memory when absent. */
  store?: ScheduleStore
  clock?: Clock
  /** The longest the loop sleeps between checks (default 60 s), so clock jumps are noticed. */
  maxSleepMs?: number
  /** Called with failures no caller can receive, such as a failed enqueue of a due run. */
  onError?: (error: SchedulerError) => void
  /**
   * Set when cron schedulers on several nodes share the stores (`createScheduler` sets it
   * when given a `nodeId`): the task of each due run gets an id derived from the schedule id
   * and the due time, and is created only if no task has it, so exactly one node enqueues
   * each run, and a run whose enqueue failed or whose node died is enqueued by the next
   * tick of any node. Without it, every scheduler enqueues every due run.
   */
  shared?: boolean
}

/** Cron schedules: create, read, update, delete, and the loop that enqueues their runs. */
export interface CronScheduler {
  /** Stores a schedule (`INVALID_SCHEDULE`, `INVALID_CRON`, `UNKNOWN_TASK_TYPE`, `INVALID_ARGS`, `CONFLICT`). */
  create(input: CronScheduleInput): Promise<CronSchedule>
  /** The schedule with that id (`NOT_FOUND`). */
  get(id: string): Promise<CronSchedule>
  /** Every schedule, ordered by id. */
  list(): Promise<CronSchedule[]>
  /** Changes the given fields only and returns the result (`NOT_FOUND`, and the errors of `create`). */
  update(id: string, patch: CronSchedulePatch): Promise<CronSchedule>
  /** Removes a schedule (`NOT_FOUND`); tasks it already enqueued stay. */
  delete(id: string): Promise<void>
  /**
   * Enqueues one task for every enabled schedule that is due, unless one of its tasks is
   * still pending, and moves each to its next time after now: runs missed while the
   * process was down collapse into one. Returns the tasks enqueued. The loop calls it.
   */
  tick(): Promise<Task[]>
  /** Runs a first tick (the catch-up after downtime), then keeps ticking on the clock's timers. */
  start(): Promise<void>
  /** Stops the loop and waits for a tick in progress. */
  stop(): Promise<void>
}

function withoutNextRun(schedule: CronSchedule): CronSchedule {
  const { nextRunAt: _next, ...rest } = schedule
  return rest
}

/** `schedule` with `nextRunAt` after `now`, or without one when disabled or it never fires. */
function planned(schedule: CronSchedule, now: number): CronSchedule {
  const rest = withoutNextRun(schedule)
  if (!schedule.enabled) return rest
  let next: number | undefined
  try {
    next = parseCronExpression(schedule.schedule, { now }).nextAfter(now)
  } catch {
    next = undefined
  }
  return next === undefined ? rest : { ...rest, nextRunAt: next }
}

/**
 * Makes the cron side of the scheduler. Nothing is enqueued until {@link CronScheduler.start}.
 *
 * @example
 * const cron = createCronScheduler({ runner })
 * await cron.create({ id: 'nightly-gc', schedule: '0 3 * * *', taskType: 'gc', args: {}, enabled: true })
 * await cron.start()
 */
export function createCronScheduler(options: CronSchedulerOptions): CronScheduler {
  const maxSleepMs = options.maxSleepMs ?? 60_000
  if (!(maxSleepMs >= 1 && maxSleepMs <= 2_147_483_647)) {
    throw new RangeError(`maxSleepMs must be from 1 to 2^31-1, got ${String(maxSleepMs)}`)
  }
  const { runner } = options
  const clock = options.clock ?? systemClock
  const store = guardScheduleStore(options.store ?? createMemoryScheduleStore())
  const queue = createSerialQueue()
  let started = false
  let cancelTimer: (() => void) | undefined

  const report = (err: unknown): void => {
    if (isSchedulerError(err)) options.onError?.(err)
    else {
      const reason = err instanceof Error ? err.message : String(err)
      options.onError?.(new SchedulerError('STORE_ERROR', reason, { cause: err }))
    }
  }

  const find = async (id: string): Promise<CronSchedule> => {
    const schedule = await store.get(id)
    if (schedule === undefined) {
      throw new SchedulerError('NOT_FOUND', `no such cron schedule: ${id}`, { id })
    }
    return schedule
  }

  /**
   * Sets the timer for the earliest due schedule, at most `maxSleepMs` away; in the queue.
   * Never throws: a failing store must not end the loop, so it then sleeps the longest.
   */
  const arm = async (): Promise<void> => {
    cancelTimer?.()
    cancelTimer = undefined
    if (!started) return
    let delay = maxSleepMs
    try {
      const now = clock.now()
      for (const schedule of await store.list()) {
        if (schedule.enabled && schedule.nextRunAt !== undefined) {
          delay = Math.min(delay, Math.max(0, schedule.nextRunAt - now))
        }
      }
    } catch (err) {
      report(err)
    }
    // A stop may have come while the store was read.
    if (started) cancelTimer = clock.setTimer(wake, delay)
  }

  const conflict = (id: string) => () =>
    new SchedulerError('CONFLICT', `cron schedule ${id} kept changing while being written`, {
      id,
    })

  /** Enqueues the due run of `schedule` unless a task of it is pending or another node did. */
  const runDue = async (schedule: CronSchedule, slot: number): Promise<Task | undefined> => {
    const pending = await runner.list({ status: ['pending'], scheduleId: schedule.id })
    if (pending.length > 0) return undefined
    const { taskType, args, id: scheduleId } = schedule
    if (!options.shared) return runner.enqueue(taskType, args, { scheduleId })
    try {
      return await runner.enqueue(taskType, args, {
        scheduleId,
        id: slotTaskId(scheduleId, slot),
      })
    } catch (err) {
      // Another node enqueued this run first.
      if (isSchedulerError(err, 'CONFLICT')) return undefined
      throw err
    }
  }

  const tickJob = async (): Promise<Task[]> => {
    const now = clock.now()
    const enqueued: Task[] = []
    for (const schedule of await store.list()) {
      if (!schedule.enabled || schedule.nextRunAt === undefined || schedule.nextRunAt > now)
        continue
      let task: Task | undefined
      try {
        task = await runDue(schedule, schedule.nextRunAt)
        if (task !== undefined) enqueued.push(task)
      } catch (err) {
        // The due time is skipped, not retried in a loop; the error goes to onError.
        const reason = err instanceof Error ? err.message : String(err)
        report(
          new SchedulerError(
            isSchedulerError(err) ? err.code : 'STORE_ERROR',
            `cron schedule ${schedule.id} could not enqueue its task: ${reason}`,
            { id: schedule.id, cause: err },
          ),
        )
      }
      // Every node ticking this slot moves the schedule on; the one that enqueued adds its
      // task, also over a record another node moved on first.
      await writeSchedule(
        store,
        schedule,
        (current) => {
          const movedOn = current.nextRunAt === undefined || current.nextRunAt > now
          if (task === undefined && movedOn) return undefined
          const next =
            task === undefined ? current : { ...current, lastRunAt: now, lastTaskId: task.id }
          return planned(next, now)
        },
        conflict(schedule.id),
      )
    }
    return enqueued
  }

  function wake(): void {
    cancelTimer = undefined
    queue
      .run(async () => {
        if (!started) return
        try {
          await tickJob()
        } finally {
          await arm()
        }
      })
      .catch(report)
  }

  /** The task type and args `patch` leads to, validated by the runner. */
  const checkTask = (id: string, taskType: unknown, args: unknown) => {
    const type = checkTaskType(taskType, id)
    return { taskType: type, args: runner.parseArgs(type, args) }
  }

  return {
    async create(input) {
      const id = checkScheduleId(input.id)
      const enabled = checkEnabled(input.enabled, id)
      const now = clock.now()
      const cron = parseCronExpression(input.schedule, { now })
      const task = checkTask(id, input.taskType, input.args)
      return queue.run(async () => {
        if ((await store.get(id)) !== undefined) {
          throw new SchedulerError('CONFLICT', `a cron schedule with id ${id} already exists`, {
            id,
          })
        }
        const schedule = planned(
          { id, schedule: cron.source, ...task, enabled, createdAt: now, updatedAt: now },
          now,
        )
        // Another node may create the same id at the same time: only one of them wins.
        const created =
          store.putIf === undefined
            ? (await store.put(schedule), true)
            : await store.putIf(schedule, undefined)
        if (!created) {
          throw new SchedulerError('CONFLICT', `a cron schedule with id ${id} already exists`, {
            id,
          })
        }
        await arm()
        return schedule
      })
    },

    get: find,

    list: () => store.list(),

    update(id, patch) {
      return queue.run(async () => {
        const found = await find(id)
        if (typeof patch !== 'object' || patch === null) {
          throw new SchedulerError('INVALID_SCHEDULE', 'an update must be an object', { id })
        }
        const now = clock.now()
        const change = (existing: CronSchedule): CronSchedule => {
          const enabled =
            patch.enabled === undefined ? existing.enabled : checkEnabled(patch.enabled, id)
          const expression =
            patch.schedule === undefined
              ? existing.schedule
              : parseCronExpression(patch.schedule, { now }).source
          const taskChanged = patch.taskType !== undefined || patch.args !== undefined
          const task = taskChanged
            ? checkTask(id, patch.taskType ?? existing.taskType, patch.args ?? existing.args)
            : { taskType: existing.taskType, args: existing.args }
          const updated = { ...existing, schedule: expression, ...task, enabled, updatedAt: now }
          // Keep the planned time unless the timing changed; re-enabling never catches up.
          const retime =
            patch.schedule !== undefined ||
            (enabled && !existing.enabled) ||
            existing.nextRunAt === undefined
          return retime || !enabled ? planned(updated, now) : updated
        }
        // A tick on another node may move the record on meanwhile: the patch is applied again.
        const schedule = await writeSchedule(store, found, change, conflict(id))
        if (schedule === undefined) {
          throw new SchedulerError('NOT_FOUND', `no such cron schedule: ${id}`, { id })
        }
        await arm()
        return schedule
      })
    },

    delete(id) {
      return queue.run(async () => {
        await find(id)
        await store.delete(id)
        await arm()
      })
    },

    tick: () => queue.run(tickJob),

    async start() {
      if (started) return
      started = true
      await queue.run(async () => {
        try {
          await tickJob()
        } finally {
          await arm()
        }
      })
    },

    async stop() {
      started = false
      cancelTimer?.()
      cancelTimer = undefined
      await queue.idle()
    },
  }
}
