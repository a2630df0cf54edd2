import * as v from 'valibot'
import { rulesSchema } from './api-key'
import { uuidSchema } from './identity-ids'

/**
 * What `GET /auth/whoami` answers: who the caller's credential speaks for. `user_id`,
 * `username` and `email` are `null` for a share key (its rules are its only authority);
 * `email` is also `null` for a user without one; `key_id` is `null` for a credential that
 * descends from no API key (a magic-link token, or `--auth disabled`). `is_root` says the
 * caller may do root-only things; `scoped` says rules restrict it, and `rules` lists them in
 * order (empty when unrestricted).
 */
export const whoamiSchema = v.strictObject({
  user_id: v.nullable(uuidSchema),
  username: v.nullable(v.string()),
  email: v.nullable(v.string()),
  is_root: v.boolean(),
  key_id: v.nullable(uuidSchema),
  scoped: v.boolean(),
  rules: rulesSchema,
})

/** The caller as `GET /auth/whoami` shows it. */
export type WhoamiView = v.InferOutput<typeof whoamiSchema>
