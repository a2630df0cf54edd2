import type { Access, Principal } from '@svcdb/auth'
import { ServerError } from '../errors/server-error'

/**
 * True when the caller may see the whole database's inventory: the counts and sizes of
 * `/system/stats` and `/system/metrics`, every snapshot and fork, and `versions_created` and
 * `metrics` events. That takes `list` on `/`. A share key never may, whatever its paths: a
 * link handed out for one folder must not tell what else the database holds.
 */
export function seesInventory(access: Access): boolean {
  return access.principal.userId !== null && access.allows('/', 'list')
}

/**
 * Throws unless the caller {@link seesInventory}, answering as every denial does: 404 for
 * scoped callers (the route must look absent, spec rule 8), 403 otherwise.
 *
 * @param what the route, named in the message (`/system/stats`).
 */
export function checkInventory(access: Access, what: string): void {
  if (seesInventory(access)) return
  if (access.scoped) throw new ServerError('NOT_FOUND', `not found: ${what}`)
  throw new ServerError('FORBIDDEN', `${what} needs list permission on /`)
}

/** True when the caller may see the server's filesystem paths (`database_path`): root only. */
export function seesServerPaths(principal: Principal): boolean {
  return principal.isRoot
}
