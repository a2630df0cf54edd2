import type { GroupView, ShareView, UserView } from '@svcdb/contract'

/** Whom a share names: a user (by id) or a group (by name). */
export type Recipient = { kind: 'user'; id: string } | { kind: 'group'; name: string }

/** A recipient as a `<select>` option's value. */
export function recipientValue(recipient: Recipient): string {
  return recipient.kind === 'user' ? `user:${recipient.id}` : `group:${recipient.name}`
}

/** The recipient an option's value stands for, or `undefined` for none chosen. */
export function parseRecipient(value: string): Recipient | undefined {
  if (value.startsWith('user:')) return { kind: 'user', id: value.slice('user:'.length) }
  if (value.startsWith('group:')) return { kind: 'group', name: value.slice('group:'.length) }
  return undefined
}

/** The `POST /files/share` body granting `permissions` on `path` to `recipient`. */
export function shareBody(
  path: string,
  recipient: Recipient,
  permissions: string,
): { paths: string[]; permissions: string; users?: string[]; groups?: string[] } {
  return recipient.kind === 'user'
    ? { paths: [path], users: [recipient.id], permissions }
    : { paths: [path], groups: [recipient.name], permissions }
}

/** The `DELETE /files/shares` body removing exactly `share`. */
export function unshareBody(share: ShareView): { path: string; user?: string; group?: string } {
  if (share.user_id !== undefined) return { path: share.path, user: share.user_id }
  if (share.group !== undefined) return { path: share.path, group: share.group }
  return { path: share.path }
}

/** Who a share is for, in words: `user ada`, `group staff`. */
export function shareHolder(share: ShareView, users: readonly UserView[]): string {
  if (share.group !== undefined) return `group ${share.group}`
  const user = users.find((u) => u.user_id === share.user_id)
  return `user ${user?.username ?? share.user_id ?? '?'}`
}

/** The recipients to choose from: users then groups. */
export function recipientChoices(
  users: readonly UserView[],
  groups: readonly GroupView[],
): { value: string; label: string }[] {
  return [
    ...users.map((u) => ({
      value: recipientValue({ kind: 'user', id: u.user_id }),
      label: `user ${u.username}`,
    })),
    ...groups.map((g) => ({
      value: recipientValue({ kind: 'group', name: g.name }),
      label: `group ${g.name}`,
    })),
  ]
}
