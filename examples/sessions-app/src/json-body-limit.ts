import { bodyLimit } from 'hono/body-limit'
import type { MiddlewareHandler } from 'hono'
import { SessionsAppError } from './errors'

/**
 * Refuses bodies over `maxBytes` with `PAYLOAD_TOO_LARGE` (413), counting as they stream, so a
 * body without `Content-Length` is bounded too.
 */
export function jsonBodyLimit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new SessionsAppError('PAYLOAD_TOO_LARGE', `the request body exceeds ${maxBytes} bytes`)
    },
  })
}
