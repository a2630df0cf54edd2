import type { Access, Auth, Operation } from '@svcdb/auth'
import type { Workspace } from '@svcdb/engine'
import { isEngineError, reservedKind } from '@svcdb/engine'
import type { Context } from 'hono'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'

/** The caller's permissions, resolved once per request. */
export async function accessOf(c: Context<AppEnv>, auth: Auth): Promise<Access> {
  const principal = c.get('principal')
  if (principal === undefined)
    throw new ServerError('UNAUTHORIZED', 'this route needs a Bearer access token')
  return auth.accessFor(principal)
}

/**
 * Checks one operation on a path (404 for scoped callers, 403 otherwise, per the spec).
 * Writing configuration (`/.svcdb/…`, `<dir>/.svcdb/…`) also needs `configure` (`y`).
 */
export function allow(access: Access, path: string, operation: Operation): void {
  access.check(path, operation)
  if (operation !== 'read' && operation !== 'list' && reservedKind(path) !== undefined)
    access.check(path, 'configure')
}

/**
 * True when `path` holds an entry of `target` (a symlink counts as itself). A file where a
 * parent directory should be means no entry here: answering that before the caller's rights
 * are checked would tell what lies above the path.
 */
export async function entryExists(target: Workspace, path: string): Promise<boolean> {
  try {
    await target.stat(path, { follow: false })
    return true
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'NOT_A_DIRECTORY')) return false
    throw err
  }
}

/**
 * Checks the right a write to `path` needs: `update` over an existing entry, `create` for a
 * new one. Presence only picks the right to check, so a caller holding both skips the tree
 * walk (the engine still refuses what must be refused, e.g. a directory in the way).
 */
export async function allowWrite(access: Access, target: Workspace, path: string): Promise<void> {
  if (access.allows(path, 'create') && access.allows(path, 'update')) allow(access, path, 'update')
  else allow(access, path, (await entryExists(target, path)) ? 'update' : 'create')
}
