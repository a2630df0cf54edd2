import type { Access, Auth, Operation } from '@svcdb/auth'
import { reservedKind } from '@svcdb/engine'
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
