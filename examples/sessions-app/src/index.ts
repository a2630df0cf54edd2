export { SESSIONS_APP_ROUTES, sessionEventSchema } from './session-event'
export type { SessionEvent } from './session-event'
