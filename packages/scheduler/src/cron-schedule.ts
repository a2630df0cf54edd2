/**
 * A cron schedule, as kept by a {@link ScheduleStore}: the spec's Cron schedule resource in
 * camelCase (`taskType` is `task_type`), plus bookkeeping. Times are Unix ms.
 */
export interface CronSchedule {
  /** Chosen by the client. */
  id: string
  /** A five-field cron expression, evaluated in UTC (whitespace normalised to single spaces). */
  schedule: string
  /** The type of the task each run enqueues. */
  taskType: string
  /** The validated arguments each run's task gets. */
  args: Record<string, unknown>
  enabled: boolean
  createdAt: number
  updatedAt: number
  /** The next time the schedule is due; absent while disabled. */
  nextRunAt?: number
  /** When the schedule last enqueued a task. */
  lastRunAt?: number
  /** The id of the task it last enqueued. */
  lastTaskId?: string
}
