export { systemClock } from './clock'
export type { Clock } from './clock'
export { parseCronExpression } from './cron-expression'
export type { CronExpression, ParseCronOptions } from './cron-expression'
export type { CronSchedule } from './cron-schedule'
export { createCronScheduler } from './cron-scheduler'
export type {
  CronScheduleInput,
  CronSchedulePatch,
  CronScheduler,
  CronSchedulerOptions,
} from './cron-scheduler'
export { isSchedulerError, SchedulerError } from './errors'
export type { SchedulerErrorCode, SchedulerErrorOptions, SchedulerIssue } from './errors'
export { estimateEta } from './eta'
export { createMemoryScheduleStore } from './memory-schedule-store'
export { createMemoryTaskStore } from './memory-task-store'
export type { ScheduleStore } from './schedule-store'
export { createScheduler } from './scheduler'
export type { Scheduler, SchedulerOptions } from './scheduler'
export { isTerminalStatus, TASK_STATUSES, TERMINAL_TASK_STATUSES } from './task'
export type { Task, TaskStatus } from './task'
export { BUILTIN_TASK_TYPES, parseTaskArgs } from './task-args'
export type {
  BackupArgs,
  BuiltinTaskArgs,
  BuiltinTaskType,
  GcArgs,
  ReindexArgs,
  TaskArgsOf,
} from './task-args'
export type { TaskContext, TaskHandler } from './task-handler'
export { DEFAULT_TASK_RETENTION, selectExpiredTasks } from './task-retention'
export type { TaskRetention } from './task-retention'
export { createTaskRunner } from './task-runner'
export type {
  EnqueueOptions,
  RegisterOptions,
  TaskRunner,
  TaskRunnerOptions,
} from './task-runner-types'
export { matchesTaskFilter } from './task-store'
export type { TaskFilter, TaskStore } from './task-store'
