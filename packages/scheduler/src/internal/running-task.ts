import type { Clock } from '../clock'
import { SchedulerError } from '../errors'
import { estimateEta } from '../eta'
import type { Task } from '../task'
import type { TaskContext } from '../task-handler'
import { withProgress } from './task-records'

/** The runner's live state of one task whose handler has been started. */
export interface RunningTask {
  /** The live record; progress here is newer than the store's. */
  task: Task
  /** The record as this runner last stored it: what a compare-and-set write expects. */
  stored: Task
  readonly controller: AbortController
  /** Stored as `cancelled`; the handler's end changes nothing. */
  cancelled: boolean
  /** Aborted by `stop`; a throwing end puts the task back to `pending`. */
  stopping: boolean
  /** The store no longer records this run as this runner's (another node took it over). */
  released: boolean
  /** The handler has ended. */
  done: boolean
  /** When progress was last written to the store. */
  lastWriteAt: number
  /** Settles once the handler has ended and its outcome is stored. */
  settled: Promise<void>
}

/** A fresh {@link RunningTask} for a task just stored as `running`. */
export function createRunningTask(task: Task, now: number): RunningTask {
  return {
    task,
    stored: task,
    controller: new AbortController(),
    cancelled: false,
    stopping: false,
    released: false,
    done: false,
    lastWriteAt: now,
    settled: Promise.resolve(),
  }
}

/** What {@link createTaskContext} needs from the runner. */
export interface TaskContextDeps {
  clock: Clock
  progressWriteIntervalMs: number
  /** Stores the live record (throttled by the caller's interval). */
  writeProgress(entry: RunningTask): void
}

/** The context handed to the handler of `entry`: its args, signal and progress reporting. */
export function createTaskContext(entry: RunningTask, deps: TaskContextDeps): TaskContext<never> {
  const { id, taskType, startedAt = deps.clock.now() } = entry.task
  return {
    id,
    taskType,
    args: structuredClone(entry.task.args) as never,
    signal: entry.controller.signal,
    reportProgress(progress) {
      if (typeof progress !== 'number' || !(progress >= 0 && progress <= 1)) {
        throw new SchedulerError(
          'INVALID_PROGRESS',
          `progress must be a number from 0 to 1, got ${String(progress)}`,
          { id },
        )
      }
      if (entry.done || entry.cancelled || entry.released || entry.controller.signal.aborted) return
      const now = deps.clock.now()
      entry.task = withProgress(entry.task, progress, estimateEta(startedAt, progress, now))
      if (now - entry.lastWriteAt < deps.progressWriteIntervalMs) return
      entry.lastWriteAt = now
      deps.writeProgress(entry)
    },
  }
}
