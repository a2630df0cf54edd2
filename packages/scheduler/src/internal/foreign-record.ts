import { SchedulerError } from '../errors'
import type { Task } from '../task'
import type { RunningTask } from './running-task'

/**
 * Applies to `entry` the record `stored` that another node left (a write expecting
 * `entry.stored` failed, or the poll read something else): a cancel marks the run cancelled
 * and aborts its handler as a local cancel does, and returns `'cancelled'`; this run's own
 * record (same owner and start) is adopted as the expected one (`'ours'`); anything else
 * means the run was taken over: its end will write nothing (`'released'`).
 */
export function applyForeignRecord(
  entry: RunningTask,
  stored: Task | undefined,
  nodeId: string | undefined,
): 'cancelled' | 'ours' | 'released' {
  const { id } = entry.task
  if (stored?.status === 'cancelled') {
    entry.task = stored
    entry.stored = stored
    entry.cancelled = true
    entry.controller.abort(new SchedulerError('CANCELLED', `task ${id} was cancelled`, { id }))
    return 'cancelled'
  }
  if (
    stored?.status === 'running' &&
    stored.owner === nodeId &&
    stored.startedAt === entry.stored.startedAt
  ) {
    entry.stored = stored
    return 'ours'
  }
  entry.released = true
  entry.controller.abort(
    new SchedulerError('STOPPED', `task ${id} was taken over by another node`, { id }),
  )
  return 'released'
}
