import * as v from 'valibot'

/**
 * An event of the session stream (`GET /api/v1/sessions/events`): `created` when a session is
 * submitted, `dispatched` when it has been dispatched. Consumers needing more fetch the
 * session by id.
 */
export const sessionEventSchema = v.strictObject({
  kind: v.picklist(['created', 'dispatched']),
  sessionID: v.pipe(v.string(), v.minLength(1)),
})

/** An event of the session stream. */
export type SessionEvent = v.InferOutput<typeof sessionEventSchema>

/**
 * The application's routes: the four of the spec ("Application-level stream routes") and
 * `sessionSubmit`, which the spec leaves to the application.
 */
export const SESSIONS_APP_ROUTES = {
  sessionSubmit: '/api/v1/sessions',
  sessionEvents: '/api/v1/sessions/events',
  channelEvents: '/api/v1/channels/events',
  channelSend: '/api/v1/channels/send',
  sessionMeta: '/api/v1/sessions/{id}/meta',
} as const
