export { isSchedulerError, SchedulerError } from './errors'
export type { SchedulerErrorCode, SchedulerErrorOptions } from './errors'
