import type { Context } from 'hono'
import type { AppEnv } from '../../routing/app-env'
import { boundedRequestBody } from '../../routing/request-stream'
import type { BodyLimit } from '../../routing/request-stream'

/**
 * The raw request body as an async iterable of bytes, read as it arrives. With a `limit`, more
 * bytes than it allows answer 413 `PAYLOAD_TOO_LARGE` as soon as they arrive. Stopping early
 * never destroys the connection, so the error answer reaches the client (see
 * {@link boundedRequestBody}).
 */
export function requestBody(c: Context<AppEnv>, limit?: BodyLimit): AsyncIterable<Uint8Array> {
  return boundedRequestBody(c, limit)
}
