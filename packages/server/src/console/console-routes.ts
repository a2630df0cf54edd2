import type { Context, Hono } from 'hono'
import { ServerError } from '../errors/server-error'
import type { AppEnv } from '../routing/app-env'
import type { ConsoleFile, ConsoleFiles } from './console-files'
import { CONSOLE_SECURITY_HEADERS, IMMUTABLE_CACHE, REVALIDATE_CACHE } from './console-headers'
import type { ConsoleSignIn } from './console-sign-in'

/** Where the console lives. */
export const CONSOLE_PREFIX = '/console/'

/** What the sign-in screen may offer, below {@link CONSOLE_PREFIX}. */
export const SIGN_IN_JSON = 'sign-in.json'

/**
 * Serves the console at `/console/` and sends `/` and `/console` there. `files` is the
 * console's build in memory; `undefined` when the console is on but was not built, in which
 * case `/console/` answers a 404 that says so. A path below `/console/` that names no file
 * gets `index.html` (the console routes in the browser), except under `assets/`, where a
 * missing file is a plain 404: a stale page must not get HTML for a script.
 * `/console/sign-in.json` tells the sign-in screen what `signIn` says it may offer (no magic
 * links when absent).
 */
export function mountConsole(
  app: Hono<AppEnv>,
  files: ConsoleFiles | undefined,
  signIn?: ConsoleSignIn,
): void {
  app.get('/', (c) => c.redirect(CONSOLE_PREFIX, 302))
  app.get('/console', (c) => c.redirect(CONSOLE_PREFIX, 301))
  app.get(`${CONSOLE_PREFIX}${SIGN_IN_JSON}`, async (c) => {
    const view = signIn === undefined ? { magic_link: false } : await signIn()
    return c.json(view, 200, { ...CONSOLE_SECURITY_HEADERS, 'Cache-Control': 'no-store' })
  })
  app.get(`${CONSOLE_PREFIX}*`, (c) => {
    if (files === undefined)
      throw new ServerError(
        'NOT_FOUND',
        'the web console is not built into this server: build it (pnpm build) or start with --no-console',
      )
    const path = c.req.path.slice(CONSOLE_PREFIX.length)
    const file = files.get(path === '' ? 'index.html' : path)
    if (file !== undefined) return answer(c, file)
    if (path.startsWith('assets/'))
      throw new ServerError('NOT_FOUND', `no such console file: ${c.req.path}`)
    return answer(c, files.get('index.html') as ConsoleFile)
  })
}

function answer(c: Context<AppEnv>, file: ConsoleFile): Response {
  const headers: Record<string, string> = {
    ...CONSOLE_SECURITY_HEADERS,
    'Content-Type': file.contentType,
    'Cache-Control': file.immutable ? IMMUTABLE_CACHE : REVALIDATE_CACHE,
    ETag: file.etag,
  }
  if (file.br !== undefined || file.gzip !== undefined) headers.Vary = 'Accept-Encoding'
  if (matches(c.req.header('if-none-match'), file.etag)) return c.body(null, 304, headers)
  const accepted = c.req.header('accept-encoding') ?? ''
  let body = file.bytes
  if (file.br !== undefined && accepts(accepted, 'br')) {
    body = file.br
    headers['Content-Encoding'] = 'br'
  } else if (file.gzip !== undefined && accepts(accepted, 'gzip')) {
    body = file.gzip
    headers['Content-Encoding'] = 'gzip'
  }
  headers['Content-Length'] = String(body.length)
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers)
}

/** `If-None-Match` lists `etag` (or is `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*')
}

/** `Accept-Encoding` names `coding` without `q=0`. */
function accepts(header: string, coding: string): boolean {
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (name?.trim().toLowerCase() !== coding) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}
