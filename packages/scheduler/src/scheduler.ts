import { systemClock } from './clock'
import { type CronScheduler, createCronScheduler } from './cron-scheduler'
import type { ScheduleStore } from './schedule-store'
import { createTaskRunner } from './task-runner'
import type { TaskRunner, TaskRunnerOptions } from './task-runner-types'

/** Options of {@link createScheduler}: the runner's, plus where schedules persist. */
export interface SchedulerOptions extends Omit<TaskRunnerOptions, 'store'> {
  /** Where tasks persist; in memory when absent. */
  taskStore?: TaskRunnerOptions['store']
  /** Where cron schedules persist; in memory when absent. */
  scheduleStore?: ScheduleStore
  /** The longest the cron loop sleeps between checks (default 60 s). */
  maxSleepMs?: number
}

/** The task runner and the cron scheduler, sharing one clock, started and stopped together. */
export interface Scheduler {
  /** Tasks: register handlers, enqueue, list, get, cancel. */
  readonly tasks: TaskRunner
  /** Cron schedules that enqueue tasks on `tasks`. */
  readonly cron: CronScheduler
  /** Recovers interrupted tasks, starts running them, then starts the cron loop. */
  start(): Promise<void>
  /** Stops the cron loop, then the runner (interrupted tasks go back to `pending`). */
  stop(): Promise<void>
}

/**
 * Makes the scheduler of a server or an embedded database. Register a handler for each task
 * type before `start`.
 *
 * @example
 * const scheduler = createScheduler({ taskStore, scheduleStore })
 * scheduler.tasks.register('gc', ({ args, signal, reportProgress }) => db.gc({ dryRun: args.dry_run, signal, onProgress: reportProgress }))
 * await scheduler.start()
 * const { id, taskType, status } = await scheduler.tasks.enqueue('gc', { dry_run: false })
 */
export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  const { taskStore, scheduleStore, maxSleepMs, ...runnerOptions } = options
  const clock = options.clock ?? systemClock
  const tasks = createTaskRunner({
    ...runnerOptions,
    clock,
    ...(taskStore === undefined ? {} : { store: taskStore }),
  })
  const cron = createCronScheduler({
    runner: tasks,
    clock,
    ...(scheduleStore === undefined ? {} : { store: scheduleStore }),
    ...(maxSleepMs === undefined ? {} : { maxSleepMs }),
    // Several nodes share the stores: each due cron run is enqueued by exactly one.
    ...(options.nodeId === undefined ? {} : { shared: true }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  })
  return {
    tasks,
    cron,
    async start() {
      await tasks.start()
      await cron.start()
    },
    async stop() {
      await cron.stop()
      await tasks.stop()
    },
  }
}
