/** What a snapshot or fork action needs on `/` from a caller who is not root. */
export type RootOperation = 'create' | 'delete'

const POSITIONS: Record<RootOperation, number> = { create: 0, delete: 3 }

/**
 * Whether to offer an action that takes `operation` on `/` (a snapshot or fork spans the
 * whole tree). Root may; a key with rules is told its `effective_permissions` on `/` by the
 * stat of `/`, so the screen can leave out what the server would refuse. Without them (a
 * user's unrestricted key) only the server knows: the action is offered and a refusal shows.
 *
 * @param permissions `effective_permissions` of `/`, in `crudlify` order.
 */
export function mayOnRoot(
  root: boolean,
  permissions: string | undefined,
  operation: RootOperation,
): boolean {
  if (root || permissions === undefined) return true
  return permissions[POSITIONS[operation]] !== '-' && permissions.length === 8
}
