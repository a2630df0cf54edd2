import type {
  AccessGrant,
  AdminKeyView,
  CreatedAdminKey,
  CreatedKey,
  Group,
  KeyView,
  Principal,
  RevokedKey,
  TokenGrant,
  User,
} from '@svcdb/auth'
import type { routes, WhoamiView } from '@svcdb/contract'
import type { ResponseOf as Output } from './send-view'

/** A user in wire form (spec "User"). */
export type UserWire = Output<typeof routes.usersGet>
/** A group in wire form (spec "Group"). */
export type GroupWire = Output<typeof routes.groupsGet>
/** A self-service key as listed. */
export type KeyWire = Output<typeof routes.authKeysList>[number]
/** A just-created self-service key. */
export type CreatedKeyWire = Output<typeof routes.authKeysCreate>
/** An administrative key as listed. */
export type AdminKeyWire = Output<typeof routes.authAdminKeysList>['items'][number]
/** A just-created administrative key. */
export type CreatedAdminKeyWire = Output<typeof routes.authAdminKeysCreate>

/** A token grant in wire form. */
export function tokenGrantView(grant: TokenGrant): Output<typeof routes.authToken> {
  return { token: grant.token, expires_in: grant.expiresIn, refresh_token: grant.refreshToken }
}

/** A magic-link grant in wire form: no refresh token. */
export function accessGrantView(grant: AccessGrant): Output<typeof routes.authMagicLinkVerify> {
  return { token: grant.token, expires_in: grant.expiresIn }
}

/** A self-service key as listed: no secret; `label` only when set. */
export function keyView(key: KeyView): KeyWire {
  const view: KeyWire = {
    key_id: key.keyId,
    user_id: key.userId,
    expires_at: key.expiresAt,
    created_at: key.createdAt,
    rules: key.rules.map((rule) => ({ ...rule })),
  }
  if (key.label !== undefined) view.label = key.label
  return view
}

/** A just-created self-service key, with its plaintext `key`. */
export function createdKeyView(key: CreatedKey): CreatedKeyWire {
  const view: CreatedKeyWire = {
    key_id: key.keyId,
    key: key.key,
    user_id: key.userId,
    expires_at: key.expiresAt,
    rules: key.rules.map((rule) => ({ ...rule })),
  }
  if (key.label !== undefined) view.label = key.label
  return view
}

/** An administrative key as listed: metadata only. */
export function adminKeyView(key: AdminKeyView): AdminKeyWire {
  return {
    key_id: key.keyId,
    user_id: key.userId,
    created_at: key.createdAt,
    is_revoked: key.isRevoked,
  }
}

/** A just-created administrative key, with its plaintext `api_key`. */
export function createdAdminKeyView(key: CreatedAdminKey): CreatedAdminKeyWire {
  return { key_id: key.keyId, api_key: key.apiKey, user_id: key.userId, created_at: key.createdAt }
}

/** The answer to revoking a key. */
export function revokedKeyView(revoked: RevokedKey): Output<typeof routes.authKeysRevoke> {
  return { revoked: revoked.revoked, key_id: revoked.keyId }
}

/** A user in wire form; `email` only when set. */
export function userView(user: User): UserWire {
  const view: UserWire = {
    user_id: user.userId,
    username: user.username,
    is_active: user.isActive,
    tags: [...user.tags],
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  }
  if (user.email !== undefined) view.email = user.email
  return view
}

/** A group in wire form. */
export function groupView(group: Group): GroupWire {
  return {
    name: group.name,
    default_allow: group.defaultAllow,
    default_deny: group.defaultDeny,
    query_field: group.queryField,
    query_operator: group.queryOperator,
    query_value: group.queryValue,
    created_at: group.createdAt,
    updated_at: group.updatedAt,
  }
}

/** The answer to deactivating a user. */
export function deactivatedUserView(result: {
  deactivated: boolean
  userId: string
}): Output<typeof routes.usersDeactivate> {
  return { deactivated: result.deactivated, user_id: result.userId }
}

/** The answer to deleting a group. */
export function deletedGroupView(result: {
  deleted: boolean
  name: string
}): Output<typeof routes.groupsDelete> {
  return { deleted: result.deleted, name: result.name }
}

/** The caller in wire form; `null` where the credential has no such thing. */
export function whoamiView(caller: Principal, user: User | undefined): WhoamiView {
  return {
    user_id: caller.userId,
    username: user?.username ?? null,
    email: user?.email ?? null,
    is_root: caller.isRoot,
    key_id: caller.keyId ?? null,
    scoped: caller.scoped,
    rules: caller.rules.map((rule) => ({ ...rule })),
  }
}
