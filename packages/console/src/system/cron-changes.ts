import type { CronScheduleView } from '@svcdb/contract'
import { cronSettingsBody, isCronTaskType } from './cron-body'
import type { CronSettings, CronSettingsBody } from './cron-body'

/** A `PATCH /system/cron/{id}` body: only what changed. */
export type CronChanges = Partial<CronSettingsBody>

/** The edit form's starting values for `schedule`. */
export function cronSettingsOf(schedule: CronScheduleView): CronSettings {
  const { path, dry_run: dryRun } = schedule.args
  return {
    schedule: schedule.schedule,
    // The server only stores the types it can run; gc stands in for one it might add later.
    taskType: isCronTaskType(schedule.task_type) ? schedule.task_type : 'gc',
    path: typeof path === 'string' ? path : '/',
    dryRun: dryRun === true,
    enabled: schedule.enabled,
  }
}

/**
 * What the edit form changes of `schedule` (an empty object when nothing), or why it cannot
 * be sent. The arguments are sent only when the task or its form field changed, and then
 * merged over the stored ones for the same task, so arguments the form does not show (a
 * backup's `dir` and `keep`) survive an edit.
 */
export function cronChanges(
  schedule: CronScheduleView,
  settings: CronSettings,
): { changes: CronChanges } | { error: string } {
  const built = cronSettingsBody(settings)
  if ('error' in built) return built
  const next = built.body
  const start = cronSettingsOf(schedule)
  const changes: CronChanges = {}
  if (next.schedule !== schedule.schedule) changes.schedule = next.schedule
  if (next.enabled !== schedule.enabled) changes.enabled = next.enabled
  if (next.task_type !== schedule.task_type) {
    changes.task_type = next.task_type
    changes.args = next.args
  } else if (
    (next.task_type === 'reindex' && next.args.path !== start.path) ||
    (next.task_type === 'gc' && next.args.dry_run !== start.dryRun)
  ) {
    changes.args = { ...schedule.args, ...next.args }
  }
  return { changes }
}
