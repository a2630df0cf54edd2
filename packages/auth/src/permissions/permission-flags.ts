/**
 * The operations of the 8-character permission string, in position order: `c r u d l i f y`
 * (spec "Scoped API key permissions").
 */
export const OPERATIONS = [
  'create',
  'read',
  'update',
  'delete',
  'list',
  'invoke',
  'functions',
  'configure',
] as const

/** One operation a permission string can allow. */
export type Operation = (typeof OPERATIONS)[number]

const LETTERS = 'crudlify'

/** Every operation allowed: `crudlify`. */
export const FULL_PERMISSIONS = 'crudlify'

/** Nothing allowed: `--------`. */
export const NO_PERMISSIONS = '--------'

/** What a group grants on the paths it allows (every operation but functions and configure). */
export const GROUP_PERMISSIONS = 'crudli--'

/** What the ancestors of a scoped path get: read and list. */
export const TRAVERSE_PERMISSIONS = '-r--l---'

/**
 * True for exactly 8 characters where position `i` is either the `i`-th letter of `crudlify`
 * or `-`.
 *
 * @example
 * isPermissionString('-r--l---') // true
 * isPermissionString('rl')       // false
 */
export function isPermissionString(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 8) return false
  for (let i = 0; i < 8; i++) {
    const ch = value[i]
    if (ch !== '-' && ch !== LETTERS[i]) return false
  }
  return true
}

/** True when the permission string `permissions` allows `operation`. */
export function permits(permissions: string, operation: Operation): boolean {
  const i = OPERATIONS.indexOf(operation)
  return permissions[i] === LETTERS[i]
}

/** A permission string as a bit mask (bit `i` = position `i`); `-` and unknown characters are 0. */
export function permissionMask(permissions: string): number {
  let mask = 0
  for (let i = 0; i < 8; i++) if (permissions[i] === LETTERS[i]) mask |= 1 << i
  return mask
}

/** The permission string of a bit mask made by {@link permissionMask}. */
export function permissionString(mask: number): string {
  let out = ''
  for (let i = 0; i < 8; i++) out += mask & (1 << i) ? LETTERS[i] : '-'
  return out
}

/** Mask of {@link FULL_PERMISSIONS}. */
export const FULL_MASK = 0xff

/** Mask of {@link TRAVERSE_PERMISSIONS}. */
export const TRAVERSE_MASK = permissionMask(TRAVERSE_PERMISSIONS)

/** Mask of {@link GROUP_PERMISSIONS}. */
export const GROUP_MASK = permissionMask(GROUP_PERMISSIONS)
