import type { Context } from 'hono'
import { ServerError } from '../errors/server-error'
import type { AppEnv } from './app-env'

/**
 * Refuses a request whose raw path has `.` or `..` segments, plain or percent-encoded. URL
 * parsing would resolve them before routing (`/files/../etc` would reach `/etc`), so they
 * are caught on the request line as Node received it, for every route.
 */
export async function rawPathGuard(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  const raw = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url
  if (raw !== undefined) {
    const path = raw.split('?')[0] as string
    for (const segment of path.split('/')) {
      let name = segment
      try {
        name = decodeURIComponent(segment)
      } catch {
        throw new ServerError('BAD_REQUEST', 'the request path is not valid percent-encoding')
      }
      if (name === '.' || name === '..')
        throw new ServerError('BAD_REQUEST', `the request path may not contain '${name}' segments`)
    }
  }
  await next()
}
