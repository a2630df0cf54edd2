import * as v from 'valibot'
import { jsonObjectSchema } from './json-object'
import { sessionIdSchema } from './session-id'

/** Longest `title` accepted. */
export const MAX_TITLE_LENGTH = 200

/**
 * The body of `POST /api/v1/sessions`: an optional id (one is generated when absent), an
 * optional title and an optional JSON object of application data.
 */
export const sessionInputSchema = v.pipe(
  jsonObjectSchema,
  v.strictObject({
    id: v.optional(sessionIdSchema),
    title: v.optional(v.pipe(v.string(), v.maxLength(MAX_TITLE_LENGTH))),
    payload: v.optional(jsonObjectSchema),
  }),
)

/** What a caller submits. */
export type SessionInput = v.InferOutput<typeof sessionInputSchema>

/** A session as stored at `<collection>/<id>.json`: written once, never changed. */
export const sessionSchema = v.object({
  id: sessionIdSchema,
  title: v.nullable(v.string()),
  payload: jsonObjectSchema,
  /** Unix milliseconds. */
  created_at: v.number(),
})

/** A submitted session. */
export type Session = v.InferOutput<typeof sessionSchema>

/**
 * The dispatch record stored at `<collection>/<id>.dispatched.json`: appended once when the
 * session has been dispatched, never changed.
 */
export const dispatchRecordSchema = v.object({
  session_id: sessionIdSchema,
  /** Unix milliseconds. */
  dispatched_at: v.number(),
  /** What the dispatch function returned (JSON), `null` when it returned nothing. */
  result: v.unknown(),
})

/** Proof that a session was dispatched. */
export type DispatchRecord = v.InferOutput<typeof dispatchRecordSchema>

/** The answer of `GET /api/v1/sessions/{id}/meta`: the session with its dispatch status. */
export interface SessionMeta extends Session {
  status: 'created' | 'dispatched'
  /** The dispatch record, `null` while the session waits. */
  dispatch: DispatchRecord | null
}

/** Builds a session from a validated submission. */
export function newSession(input: SessionInput, id: string, now: number): Session {
  return { id, title: input.title ?? null, payload: input.payload ?? {}, created_at: now }
}

/** A session and its dispatch record (if any), as the meta route answers them. */
export function sessionMeta(session: Session, dispatch: DispatchRecord | undefined): SessionMeta {
  return dispatch === undefined
    ? { ...session, status: 'created', dispatch: null }
    : { ...session, status: 'dispatched', dispatch }
}
