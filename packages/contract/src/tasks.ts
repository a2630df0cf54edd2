import * as v from 'valibot'

const jsonObject = v.record(v.string(), v.unknown())

/** A task as the API shows it (spec "Task"). */
export const taskSchema = v.object({
  id: v.string(),
  task_type: v.string(),
  status: v.string(),
  args: jsonObject,
  progress: v.number(),
  eta_ms: v.optional(v.number()),
  created_at: v.number(),
  started_at: v.optional(v.number()),
  finished_at: v.optional(v.number()),
  error: v.optional(v.string()),
  result: v.optional(v.unknown()),
})

/** A task as the API shows it. */
export type TaskView = v.InferOutput<typeof taskSchema>

/** What enqueueing or cancelling answers: the task's id, type and status. */
export const taskRefSchema = v.object({ id: v.string(), task_type: v.string(), status: v.string() })

/** A cron schedule as the API shows it (spec "Cron schedule"). */
export const cronScheduleSchema = v.object({
  id: v.string(),
  schedule: v.string(),
  task_type: v.string(),
  args: jsonObject,
  enabled: v.boolean(),
  created_at: v.number(),
  updated_at: v.number(),
  next_run_at: v.optional(v.number()),
  last_run_at: v.optional(v.number()),
  last_task_id: v.optional(v.string()),
})

/** A cron schedule as the API shows it. */
export type CronScheduleView = v.InferOutput<typeof cronScheduleSchema>

/** `POST /system/cron`: every field required (spec). */
export const createCronBodySchema = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  schedule: v.string(),
  task_type: v.picklist(['gc', 'reindex', 'backup']),
  args: jsonObject,
  enabled: v.boolean(),
})

/** `PATCH /system/cron/{id}`: any of the fields. */
export const patchCronBodySchema = v.strictObject({
  schedule: v.optional(v.string()),
  task_type: v.optional(v.picklist(['gc', 'reindex', 'backup'])),
  args: v.optional(jsonObject),
  enabled: v.optional(v.boolean()),
})

/** What a garbage collection reports (DESIGN §3.6). */
export const gcResultSchema = v.object({
  versions_scanned: v.number(),
  live_entries: v.number(),
  garbage_entries: v.number(),
  reclaimed_bytes: v.number(),
  duration_ms: v.number(),
  dry_run: v.boolean(),
})

/** What a garbage collection reports. */
export type GcResultView = v.InferOutput<typeof gcResultSchema>
