import type { CronScheduleView, GcResultView, routes, TaskView } from '@svcdb/contract'
import type { GcResult } from '@svcdb/engine'
import type { CronSchedule, Task } from '@svcdb/scheduler'
import type { ResponseOf } from './send-view'

/** A task in wire form (snake_case, optional fields only when present). */
export function taskView(task: Task): TaskView {
  const view: TaskView = {
    id: task.id,
    task_type: task.taskType,
    status: task.status,
    args: task.args,
    progress: task.progress,
    created_at: task.createdAt,
  }
  if (task.etaMs !== undefined) view.eta_ms = task.etaMs
  if (task.startedAt !== undefined) view.started_at = task.startedAt
  if (task.finishedAt !== undefined) view.finished_at = task.finishedAt
  if (task.error !== undefined) view.error = task.error
  if (task.result !== undefined) view.result = task.result
  return view
}

/** A cron schedule in wire form. */
export function cronView(schedule: CronSchedule): CronScheduleView {
  const view: CronScheduleView = {
    id: schedule.id,
    schedule: schedule.schedule,
    task_type: schedule.taskType,
    args: schedule.args,
    enabled: schedule.enabled,
    created_at: schedule.createdAt,
    updated_at: schedule.updatedAt,
  }
  if (schedule.nextRunAt !== undefined) view.next_run_at = schedule.nextRunAt
  if (schedule.lastRunAt !== undefined) view.last_run_at = schedule.lastRunAt
  if (schedule.lastTaskId !== undefined) view.last_task_id = schedule.lastTaskId
  return view
}

/** A garbage collection's statistics in wire form (DESIGN §3.6). */
export function gcView(result: GcResult): GcResultView {
  return {
    versions_scanned: result.versionsScanned,
    live_entries: result.liveEntries,
    garbage_entries: result.garbageEntries,
    reclaimed_bytes: result.reclaimedBytes,
    duration_ms: result.durationMs,
    dry_run: result.dryRun,
  }
}

/** A task just enqueued: its id, type and status. */
export function taskRefView(
  task: Pick<Task, 'id' | 'taskType' | 'status'>,
): ResponseOf<typeof routes.tasksReindex> {
  return { id: task.id, task_type: task.taskType, status: task.status }
}
