import type { UserView } from '@svcdb/contract'

/** The edit form's fields. */
export interface UserFields {
  username: string
  email: string
  isActive: boolean
}

/** A `PATCH /system/users/{user_id}` body: only what changed; `email: null` removes it. */
export interface UserChanges {
  username?: string
  email?: string | null
  is_active?: boolean
}

/** The edit form's starting values for `user`. */
export function userFields(user: UserView): UserFields {
  return { username: user.username, email: user.email ?? '', isActive: user.is_active }
}

/** What the edit form changes of `user`: an empty object when nothing. */
export function userChanges(user: UserView, fields: UserFields): UserChanges {
  const changes: UserChanges = {}
  const username = fields.username.trim()
  const email = fields.email.trim()
  if (username !== user.username) changes.username = username
  if (email !== (user.email ?? '')) changes.email = email === '' ? null : email
  if (fields.isActive !== user.is_active) changes.is_active = fields.isActive
  return changes
}
