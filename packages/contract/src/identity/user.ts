import * as v from 'valibot'
import { uuidSchema } from './identity-ids'

const millisSchema = v.pipe(v.number(), v.integer())
const usernameSchema = v.pipe(v.string(), v.minLength(1, 'must not be empty'))
const emailSchema = v.pipe(v.string(), v.minLength(1, 'must not be empty'))
const tagsSchema = v.array(v.string())

/**
 * A user as the API shows it (spec "User"): timestamps in Unix milliseconds; `email` only
 * when the user has one.
 */
export const userSchema = v.strictObject({
  user_id: uuidSchema,
  username: v.string(),
  email: v.optional(v.string()),
  is_active: v.boolean(),
  tags: tagsSchema,
  created_at: millisSchema,
  updated_at: millisSchema,
})

/** A user as the API shows it. */
export type UserView = v.InferOutput<typeof userSchema>

/** `POST /system/users`: `username` required; `email` and `tags` optional. */
export const createUserRequestSchema = v.strictObject({
  username: usernameSchema,
  email: v.optional(emailSchema),
  tags: v.optional(tagsSchema),
})

/**
 * `PATCH /system/users/{user_id}`: any of `username`, `email` (`null` removes it), `is_active`
 * and `tags`.
 */
export const updateUserRequestSchema = v.strictObject({
  username: v.optional(usernameSchema),
  email: v.optional(v.nullable(emailSchema)),
  is_active: v.optional(v.boolean()),
  tags: v.optional(tagsSchema),
})

/** What `DELETE /system/users/{user_id}` answers: the user is deactivated, not erased. */
export const deactivatedUserSchema = v.strictObject({
  deactivated: v.boolean(),
  user_id: uuidSchema,
})
