/** The task types a schedule can enqueue. */
export const CRON_TASK_TYPES = ['gc', 'reindex', 'backup'] as const

/** A task type a schedule can enqueue. */
export type CronTaskType = (typeof CRON_TASK_TYPES)[number]

/** The create-schedule form's fields, as typed. */
export interface CronFields {
  id: string
  schedule: string
  taskType: CronTaskType
  /** The path to reindex (reindex only). */
  path: string
  /** Whether the GC only reports (gc only). */
  dryRun: boolean
  enabled: boolean
}

/** The body of `POST /system/cron`. */
export interface CronBody {
  id: string
  schedule: string
  task_type: CronTaskType
  args: Record<string, unknown>
  enabled: boolean
}

/**
 * The body to create a schedule from the form, or the reason it cannot be sent. Only what the
 * browser can tell early is checked (the server judges the cron expression itself); the
 * arguments follow the spec: `{path}` for reindex, `{dry_run}` for gc.
 */
export function cronBody(fields: CronFields): { body: CronBody } | { error: string } {
  const id = fields.id.trim()
  const schedule = fields.schedule.trim().replace(/\s+/g, ' ')
  if (id === '') return { error: 'A schedule needs an ID.' }
  if (schedule.split(' ').length !== 5) {
    return { error: 'A cron expression has five fields (minute hour day month weekday).' }
  }
  let args: Record<string, unknown> = {}
  if (fields.taskType === 'reindex') {
    const path = fields.path.trim()
    if (!path.startsWith('/')) return { error: 'The path to reindex starts with /.' }
    args = { path }
  } else if (fields.taskType === 'gc') {
    args = { dry_run: fields.dryRun }
  }
  return { body: { id, schedule, task_type: fields.taskType, args, enabled: fields.enabled } }
}
