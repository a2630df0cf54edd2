import type { HttpBindings } from '@hono/node-server'
import { ServerResponse } from 'node:http'
import type { Context } from 'hono'
import type { AppEnv } from './app-env'

/**
 * The Node request and response @hono/node-server passes as `c.env`; undefined under
 * `app.request()`, and for HTTP/2, which the server does not speak.
 */
export function nodeBindings(c: Context<AppEnv>): HttpBindings | undefined {
  const env = c.env as Partial<HttpBindings> | undefined
  return env?.outgoing instanceof ServerResponse ? (env as HttpBindings) : undefined
}
