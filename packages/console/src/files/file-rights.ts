import type { EntryView } from '@svcdb/contract'

/** Where each operation's letter sits in a permission string (`crudlify`, spec §Scoped keys). */
const POSITION = { create: 0, read: 1, update: 2, delete: 3, list: 4 } as const

/** An operation on files that a permission string allows or denies. */
export type FileOperation = keyof typeof POSITION

/**
 * True when `permissions` allow `operation`. No string means the server did not say (it tells
 * only callers whose key has rules): the control is offered and the server judges.
 */
export function permits(permissions: string | undefined, operation: FileOperation): boolean {
  if (permissions === undefined) return true
  return permissions.charAt(POSITION[operation]) !== '-'
}

/** The write controls a directory offers, from its own permissions. */
export interface DirectoryRights {
  /** Files dropped or chosen are created (or replace those of the same name). */
  upload: boolean
  mkdir: boolean
}

/** The controls offered in a directory whose permissions are `permissions`. */
export function directoryRights(permissions: string | undefined): DirectoryRights {
  return {
    upload: permits(permissions, 'create') || permits(permissions, 'update'),
    mkdir: permits(permissions, 'create'),
  }
}

/** The controls a row of the listing offers. */
export interface EntryRights {
  /** A move reads and deletes the entry (and creates it where it goes, which the form names). */
  rename: boolean
  /** A copy only reads the entry: it may go to another directory the caller may write. */
  copy: boolean
  delete: boolean
}

/** The controls offered for `entry`, from the permissions its listing gave it. */
export function entryRights(entry: EntryView): EntryRights {
  const permissions = entry.effective_permissions
  return {
    rename: permits(permissions, 'read') && permits(permissions, 'delete'),
    copy: permits(permissions, 'read'),
    delete: permits(permissions, 'delete'),
  }
}

/**
 * True when a file's history offers its restore: the route is root's alone, and a root key's
 * rules still restrict it (a restore updates the file).
 */
export function canRestore(entry: EntryView, root: boolean): boolean {
  return root && permits(entry.effective_permissions, 'update')
}
