import { randomUUID } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import type { Logger } from '../logger'
import type { AppEnv } from '../routing/app-env'
import { nodeBindings } from '../routing/node-bindings'

/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id'

// A caller's id is echoed only when it is short and plain: it ends up in logs and headers.
const ACCEPTED_ID = /^[\w.:@+/=-]{1,128}$/

/** The caller's `X-Request-Id` when it is a plain token of at most 128 characters, else a new UUID. */
export function requestIdFor(given: string | undefined): string {
  return given !== undefined && ACCEPTED_ID.test(given) ? given : randomUUID()
}

/**
 * Gives every request an id (the caller's `X-Request-Id`, else a new one), answers it in
 * `X-Request-Id`, and, when `info` is logged, writes one access line per request once its
 * answer is sent: `requestId`, `method`, `route` (the route's pattern: one line shape per
 * endpoint, and no file names at `info`), `status`, `bytes` (on the wire, headers included, as
 * nginx's `$bytes_sent`; the body's length outside a Node server), `durationMs`, and the
 * caller's `userId` and `keyId` when known.
 */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  const logging = logger.isLevelEnabled?.('info') ?? true
  return async (c, next) => {
    const started = performance.now()
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER))
    c.set('requestId', requestId)
    // Prepared before the handler runs: every answer here is built by the context (`c.json`,
    // `c.body`, errors too), which adds it. Setting it on the answer afterwards would turn
    // Hono's light response into a full one, and on the Node response would make Node merge
    // two header sets: both cost small GETs dearly.
    c.header(REQUEST_ID_HEADER, requestId)
    const outgoing = nodeBindings(c)?.outgoing
    // Kept now: a finished response lets go of its socket.
    const socket = outgoing?.socket ?? undefined
    const sentBefore = socket?.bytesWritten ?? 0
    try {
      await next()
    } finally {
      if (logging) {
        const line = () => logger.info('request', accessFields(c, requestId, started, sent))
        const sent = () =>
          socket !== undefined
            ? socket.bytesWritten - sentBefore
            : Number(c.res.headers.get('content-length') ?? 0)
        if (outgoing === undefined || outgoing.writableFinished) line()
        else outgoing.once('close', line)
      }
    }
  }
}

function accessFields(
  c: Context<AppEnv>,
  requestId: string,
  started: number,
  sent: () => number,
): Record<string, unknown> {
  const principal = c.get('principal')
  const route = c.req.routePath === '/*' || c.req.routePath === '' ? 'unmatched' : c.req.routePath
  return {
    requestId,
    method: c.req.method,
    route,
    status: c.res.status,
    bytes: sent(),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    ...(principal?.userId != null ? { userId: principal.userId } : {}),
    ...(principal?.keyId !== undefined ? { keyId: principal.keyId } : {}),
  }
}
