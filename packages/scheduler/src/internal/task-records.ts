import type { Task } from '../task'

/**
 * The record transitions of a task, as pure functions: each returns a new record holding
 * exactly the fields its status allows (no `undefined`-valued keys, so a JSON store
 * round-trips them unchanged).
 */

/** The core of a task: what it was enqueued with. */
function core(task: Task): Task {
  const { id, taskType, args, createdAt, scheduleId } = task
  return {
    id,
    taskType,
    status: 'pending',
    args,
    progress: 0,
    createdAt,
    ...(scheduleId === undefined ? {} : { scheduleId }),
  }
}

/** Back to the queue, as after a restart: progress and timing of the interrupted run dropped. */
export function toPending(task: Task): Task {
  return core(task)
}

/** Claimed at `now` by the runner of node `owner` (none for a runner without a node id). */
export function toRunning(task: Task, now: number, owner?: string): Task {
  const running: Task = { ...core(task), status: 'running', startedAt: now }
  return owner === undefined ? running : { ...running, owner }
}

/** With a new progress and estimate (no `etaMs` when `etaMs` is undefined). */
export function withProgress(task: Task, progress: number, etaMs: number | undefined): Task {
  const { etaMs: _old, ...rest } = task
  return etaMs === undefined ? { ...rest, progress } : { ...rest, progress, etaMs }
}

/** Completed at `now`, with the handler's value as JSON `result` when it has one. */
export function toCompleted(task: Task, now: number, value: unknown): Task {
  const { etaMs: _eta, error: _error, result: _result, ...rest } = task
  const result = toJson(value)
  return {
    ...rest,
    status: 'completed',
    progress: 1,
    finishedAt: now,
    ...(result === undefined ? {} : { result }),
  }
}

/** Failed at `now` with `error`'s message. */
export function toFailed(task: Task, now: number, error: unknown): Task {
  const { etaMs: _eta, result: _result, ...rest } = task
  return { ...rest, status: 'failed', finishedAt: now, error: errorMessage(error) }
}

/** Cancelled at `now`; a task that had already finished keeps its `finishedAt`, `error` and `result`. */
export function toCancelled(task: Task, now: number): Task {
  const { etaMs: _eta, ...rest } = task
  return { ...rest, status: 'cancelled', finishedAt: task.finishedAt ?? now }
}

/** A readable message for anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message
  if (typeof error === 'string' && error !== '') return error
  return `task failed with a non-error value: ${String(error)}`
}

/** `value` as a JSON value, or `undefined` when it is undefined or cannot be serialised. */
export function toJson(value: unknown): unknown {
  if (value === undefined) return undefined
  try {
    const text = JSON.stringify(value) as string | undefined
    return text === undefined ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}
