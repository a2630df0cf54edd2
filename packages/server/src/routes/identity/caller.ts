import type { Principal } from '@svcdb/auth'
import type { Context } from 'hono'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'

/**
 * The caller of a `token` or `root` route. The guard has set it before any handler runs;
 * its absence means the route was declared `none` by mistake, which is refused as 401.
 */
export function callerOf(c: Context<AppEnv>): Principal {
  const principal = c.get('principal')
  if (principal === undefined) {
    throw new ServerError('UNAUTHORIZED', 'this route needs a Bearer access token')
  }
  return principal
}
