import type { AdminKeyView, KeyView, UserView } from '@svcdb/contract'

/** A row of the keys table: the administrative view joined with its label, rules and holder. */
export interface KeyRow {
  keyId: string
  /** The key's label, or its id when it has none: what its Revoke button names. */
  name: string
  holder: string
  createdAt: string
  revoked: boolean
  rules: KeyView['rules'] | undefined
}

/**
 * Joins root's key list (`GET /auth/keys/admin`: no labels) with the self-service list (labels and
 * rules of the keys not revoked) and the users (names of holders); newest first.
 */
export function keyRows(
  admin: readonly AdminKeyView[],
  own: readonly KeyView[],
  users: readonly UserView[],
): KeyRow[] {
  const details = new Map(own.map((key) => [key.key_id, key]))
  const names = new Map(users.map((user) => [user.user_id, user.username]))
  return admin
    .map((key) => {
      const detail = details.get(key.key_id)
      return {
        keyId: key.key_id,
        name: detail?.label !== undefined && detail.label !== '' ? detail.label : key.key_id,
        holder: names.get(key.user_id) ?? key.user_id,
        createdAt: key.created_at,
        revoked: key.is_revoked,
        rules: detail?.rules,
      }
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}
