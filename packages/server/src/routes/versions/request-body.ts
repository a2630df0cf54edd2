import type { Context } from 'hono'
import type { AppEnv } from '../../routing/app-env'

/**
 * The raw request body as an async iterable of bytes, read as it arrives: from Node's
 * `IncomingMessage` when served by @hono/node-server (fastest, DESIGN §7), else the web stream.
 */
export function requestBody(c: Context<AppEnv>): AsyncIterable<Uint8Array> {
  const incoming = (c.env as { incoming?: AsyncIterable<Uint8Array> } | undefined)?.incoming
  if (incoming !== undefined && typeof incoming[Symbol.asyncIterator] === 'function')
    return incoming
  const body = c.req.raw.body
  if (body === null) return (async function* () {})()
  return body as unknown as AsyncIterable<Uint8Array>
}
