import * as v from 'valibot'
import { permissionFlagsSchema } from './identity/api-key'
import { uuidSchema } from './identity/identity-ids'

const sharePath = v.pipe(
  v.string(),
  v.startsWith('/', 'must be an absolute path'),
  v.maxLength(4096),
)
const sharePaths = v.pipe(v.array(sharePath), v.minLength(1), v.maxLength(1000))

/** `POST /files/share`: grants exactly `permissions` on each path to users (by id) and groups (by name). */
export const shareBodySchema = v.pipe(
  v.strictObject({
    paths: sharePaths,
    users: v.optional(v.pipe(v.array(uuidSchema), v.maxLength(1000))),
    groups: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(1000))),
    permissions: permissionFlagsSchema,
  }),
  v.check(
    (body) => (body.users?.length ?? 0) + (body.groups?.length ?? 0) > 0,
    'name at least one user or group',
  ),
)

/** A grant on a path and everything below it; exactly one of `user_id` and `group`. */
export const shareSchema = v.object({
  path: v.string(),
  user_id: v.optional(v.string()),
  group: v.optional(v.string()),
  permissions: v.string(),
  /** Unix milliseconds. */
  created_at: v.number(),
})

/** A share as the API shows it. */
export type ShareView = v.InferOutput<typeof shareSchema>

/** `POST /files/share` answer: the grants written and how many recipients were emailed. */
export const shareResultSchema = v.object({
  items: v.array(shareSchema),
  notified: v.number(),
})

/** `DELETE /files/shares`: the shares on `path`, of one user or group when given. */
export const unshareBodySchema = v.pipe(
  v.strictObject({
    path: sharePath,
    user: v.optional(uuidSchema),
    group: v.optional(v.pipe(v.string(), v.minLength(1))),
  }),
  v.check(
    (body) => body.user === undefined || body.group === undefined,
    'give at most one of user and group',
  ),
)

/** `POST /files/share-link`. */
export const shareLinkBodySchema = v.strictObject({
  paths: sharePaths,
  permissions: permissionFlagsSchema,
  expires_in_days: v.optional(
    v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1), v.maxValue(3650)),
  ),
})

/** A share link as listed (its key is never shown again). */
export const shareLinkSchema = v.object({
  key_id: v.string(),
  paths: v.array(v.string()),
  permissions: v.string(),
  /** Unix milliseconds. */
  created_at: v.number(),
  /** Unix milliseconds. */
  expires_at: v.number(),
})

/** `POST /files/share-link` answer: the share key, shown once. */
export const createdShareLinkSchema = v.object({
  key_id: v.string(),
  key: v.string(),
  url: v.optional(v.string()),
  permissions: v.string(),
  paths: v.array(v.string()),
  expires_at: v.number(),
})
