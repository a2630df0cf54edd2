import * as v from 'valibot'
import { uuidSchema } from './identity-ids'

/** Most days a key may live (spec "Key expiry"). */
export const MAX_KEY_EXPIRY_DAYS = 3650

/**
 * A permission flag string: exactly 8 characters, position `i` either the `i`-th letter of
 * `crudlify` or `-` (spec "Scoped API key permissions").
 */
export const permissionFlagsSchema = v.pipe(
  v.string(),
  v.regex(
    /^[c-][r-][u-][d-][l-][i-][f-][y-]$/,
    'must be 8 characters, each the letter of its position in crudlify or -',
  ),
)

/**
 * A rule: an object with exactly one entry, an absolute path glob naming a flag string
 * (spec "Rule"), e.g. `{"/docs/**": "-r--l---"}`.
 */
export const ruleSchema = v.pipe(
  v.record(
    v.pipe(v.string(), v.startsWith('/', 'must be an absolute path glob')),
    permissionFlagsSchema,
  ),
  v.check((rule) => Object.keys(rule).length === 1, 'must have exactly one entry'),
)

/** An ordered list of rules; the first matching glob decides. */
export const rulesSchema = v.array(ruleSchema)

/** A rule as the API shows it. */
export type RuleView = v.InferOutput<typeof ruleSchema>

/**
 * `POST /auth/keys`: everything optional. `expires_in_days` is an integer from 1 to 3650
 * (730 when absent), `rules` empty when absent, `user_id` for root only (403 otherwise).
 */
export const createKeyRequestSchema = v.strictObject({
  label: v.optional(v.string()),
  expires_in_days: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be an integer'),
      v.minValue(1, `must be from 1 to ${MAX_KEY_EXPIRY_DAYS}`),
      v.maxValue(MAX_KEY_EXPIRY_DAYS, `must be from 1 to ${MAX_KEY_EXPIRY_DAYS}`),
    ),
  ),
  rules: v.optional(rulesSchema),
  user_id: v.optional(uuidSchema),
})

const selfServiceFields = {
  key_id: uuidSchema,
  /** `null` marks a share key. */
  user_id: v.nullable(uuidSchema),
  label: v.optional(v.string()),
  /** Unix milliseconds. */
  expires_at: v.pipe(v.number(), v.integer()),
  rules: rulesSchema,
}

/**
 * A key in the self-service list (`GET /auth/keys`, spec "API key (self-service view)"): no
 * secret; `label` only when the key has one.
 */
export const keyViewSchema = v.strictObject({
  ...selfServiceFields,
  /** Unix milliseconds. */
  created_at: v.pipe(v.number(), v.integer()),
})

/** A self-service key as listed. */
export type KeyView = v.InferOutput<typeof keyViewSchema>

/** `POST /auth/keys` answers the new key with its plaintext `key` (`svc_k_…`), shown once. */
export const createdKeySchema = v.strictObject({
  ...selfServiceFields,
  key: v.pipe(v.string(), v.startsWith('svc_k_')),
})

/** A just-created self-service key. */
export type CreatedKeyView = v.InferOutput<typeof createdKeySchema>

/** `POST /auth/keys/admin`: the key's holder, the caller when absent. The body may be absent. */
export const createAdminKeyRequestSchema = v.optional(
  v.strictObject({ user_id: v.optional(uuidSchema) }),
  {},
)

/** An ISO 8601 timestamp, e.g. `2030-01-01T00:00:00.000Z`. */
const isoTimestampSchema = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp'))

/** A key in the administrative list (spec "API key (administrative view)"): metadata only. */
export const adminKeyViewSchema = v.strictObject({
  key_id: uuidSchema,
  user_id: uuidSchema,
  created_at: isoTimestampSchema,
  is_revoked: v.boolean(),
})

/** An administrative key as listed. */
export type AdminKeyView = v.InferOutput<typeof adminKeyViewSchema>

/** `POST /auth/keys/admin` answers the new key with its plaintext `api_key` (`svc_…`), shown once. */
export const createdAdminKeySchema = v.strictObject({
  key_id: uuidSchema,
  api_key: v.pipe(v.string(), v.startsWith('svc_')),
  user_id: uuidSchema,
  created_at: isoTimestampSchema,
})

/** A just-created administrative key. */
export type CreatedAdminKeyView = v.InferOutput<typeof createdAdminKeySchema>

/** What revoking a key answers (both `DELETE /auth/keys…` routes). */
export const revokedKeySchema = v.strictObject({ revoked: v.boolean(), key_id: uuidSchema })
