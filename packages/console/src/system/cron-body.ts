/** The task types a schedule can enqueue. */
export const CRON_TASK_TYPES = ['gc', 'reindex', 'backup'] as const

/** A task type a schedule can enqueue. */
export type CronTaskType = (typeof CRON_TASK_TYPES)[number]

/** Whether `type` is a task type a schedule can enqueue. */
export const isCronTaskType = (type: string): type is CronTaskType =>
  (CRON_TASK_TYPES as readonly string[]).includes(type)

/** A schedule's fields as its forms type them, but for its ID. */
export interface CronSettings {
  schedule: string
  taskType: CronTaskType
  /** The path to reindex (reindex only). */
  path: string
  /** Whether the GC only reports (gc only). */
  dryRun: boolean
  enabled: boolean
}

/** The create-schedule form's fields, as typed. */
export interface CronFields extends CronSettings {
  id: string
}

/** The body of `POST /system/cron`. */
export interface CronBody {
  id: string
  schedule: string
  task_type: CronTaskType
  args: Record<string, unknown>
  enabled: boolean
}

/** A schedule as the API takes it, but for its ID. */
export type CronSettingsBody = Omit<CronBody, 'id'>

/**
 * The body to create a schedule from the form, or the reason it cannot be sent. Only what the
 * browser can tell early is checked (the server judges the cron expression itself); the
 * arguments follow the spec: `{path}` for reindex, `{dry_run}` for gc.
 */
export function cronBody(fields: CronFields): { body: CronBody } | { error: string } {
  const id = fields.id.trim()
  if (id === '') return { error: 'A schedule needs an ID.' }
  const settings = cronSettingsBody(fields)
  return 'error' in settings ? settings : { body: { id, ...settings.body } }
}

/** The settings as the API takes them, or the reason they cannot be sent (see `cronBody`). */
export function cronSettingsBody(
  settings: CronSettings,
): { body: CronSettingsBody } | { error: string } {
  const schedule = settings.schedule.trim().replace(/\s+/g, ' ')
  if (schedule.split(' ').length !== 5) {
    return { error: 'A cron expression has five fields (minute hour day month weekday).' }
  }
  let args: Record<string, unknown> = {}
  if (settings.taskType === 'reindex') {
    const path = settings.path.trim()
    if (!path.startsWith('/')) return { error: 'The path to reindex starts with /.' }
    args = { path }
  } else if (settings.taskType === 'gc') {
    args = { dry_run: settings.dryRun }
  }
  return { body: { schedule, task_type: settings.taskType, args, enabled: settings.enabled } }
}
