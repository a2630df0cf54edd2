export { EventsError, isEventsError } from './errors'
export type { EventsErrorCode, EventsErrorOptions } from './errors'
