import * as v from 'valibot'

/**
 * A session id: 1–64 of `A-Z a-z 0-9 _ -`, starting with a letter or digit. No dot, so a
 * session file `<id>.json` can never be mistaken for a dispatch record `<id>.dispatched.json`;
 * no slash, so an id is always one file name of the flat collection.
 */
export const sessionIdSchema = v.pipe(
  v.string(),
  v.regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    'must be 1-64 of A-Z, a-z, 0-9, _ and -, starting with a letter or digit',
  ),
)

/** True when `value` can be a session id. */
export function isSessionId(value: unknown): value is string {
  return v.is(sessionIdSchema, value)
}

/** A fresh id for a session submitted without one: a random UUID. */
export function newSessionId(): string {
  return globalThis.crypto.randomUUID()
}
