import { createClient } from '@svcdb/client'
import { createSessionsApp } from '../src'
import type { SessionsApp, SessionsAppOptions } from '../src'
import type { LiveSvcdb } from './live-svcdb'

/** A sessions app listening on a loopback port against a live svcdb. */
export interface RunningApp {
  app: SessionsApp
  url: string
  /** Everything the app reported through `onError`. */
  errors: unknown[]
  /** JSON request helpers against the app. */
  get(path: string, headers?: Record<string, string>): Promise<Response>
  post(path: string, body: unknown): Promise<Response>
  close(): Promise<void>
}

/**
 * Starts an app with the scoped key, listening on a free port, and waits until it follows
 * svcdb's event stream (so every later write reaches its streams).
 */
export async function startApp(
  svcdb: LiveSvcdb,
  options: Partial<Omit<SessionsAppOptions, 'client'>> = {},
): Promise<RunningApp> {
  const errors: unknown[] = []
  const app = createSessionsApp({
    client: createClient({ baseUrl: svcdb.url, apiKey: svcdb.appKey }),
    onError: (err) => errors.push(err),
    ...options,
  })
  const { url } = await app.listen()
  await app.ready
  return {
    app,
    url,
    errors,
    get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
    post: (path, body) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: () => app.close({ graceMs: 100 }),
  }
}

/** Polls `check` until it returns a value other than undefined, for up to `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
