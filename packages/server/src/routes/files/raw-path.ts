import { hasControlCharacter } from '@svcdb/engine'
import type { Context } from 'hono'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'

/**
 * The database path of a file route, read from the raw request line rather than the parsed
 * URL: URL parsing resolves `..` and `%2e%2e` before any route sees them, which would turn
 * `/files/a/../../x` into another path instead of refusing it. Every segment is decoded on
 * its own; `.`/`..`, encoded slashes or backslashes, NUL and control characters (the engine's
 * rule, checked here to answer with this message), and empty inner segments answer 400.
 */
export function rawFilePath(
  c: Context<AppEnv>,
  prefix: '/files/' | '/links/' | '/versions/history/' | '/versions/restore/',
): string {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url
  const raw = (incoming ?? new URL(c.req.url).pathname).split('?')[0] as string
  if (!raw.startsWith(prefix)) throw invalid(raw)
  const rest = raw.slice(prefix.length)
  const parts = rest.split('/')
  if (parts.at(-1) === '') parts.pop()
  const names: string[] = []
  for (const part of parts) {
    let name: string
    try {
      name = decodeURIComponent(part)
    } catch {
      throw invalid(raw)
    }
    if (
      name === '' ||
      name === '.' ||
      name === '..' ||
      /[/\\]/.test(name) ||
      hasControlCharacter(name)
    )
      throw invalid(raw)
    names.push(name)
  }
  return `/${names.join('/')}`
}

function invalid(raw: string): ServerError {
  return new ServerError(
    'BAD_REQUEST',
    `invalid path ${JSON.stringify(raw.slice(0, 200))}: no '.' or '..' segments, encoded slashes, empty segments or control characters`,
  )
}
