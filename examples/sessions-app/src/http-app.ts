import type { ChannelHub } from '@svcdb/events'
import { Hono } from 'hono'
import { toErrorResponse } from './error-response'
import { channelRoutes } from './routes/channel-routes'
import { sessionRoutes } from './routes/session-routes'
import type { SessionFeed } from './session-feed'
import type { SessionStore } from './session-store'

/** What the HTTP app is made of. */
export interface HttpAppContext {
  store: SessionStore
  feed: SessionFeed
  channels: ChannelHub<unknown>
  now(): number
  shutdown: AbortSignal
  pingIntervalMs: number
  maxBodyBytes: number
  /** Gets errors that are not the caller's fault (500, 502, 503), for logging. */
  onError(err: unknown): void
}

/**
 * The Hono app serving every route. Handlers throw; this is the one place that turns errors
 * into `{"error": {"code", "message"}}` answers.
 */
export function createHttpApp(ctx: HttpAppContext): Hono {
  const app = new Hono()
  app.route('/', sessionRoutes(ctx))
  app.route('/', channelRoutes(ctx))
  app.notFound((c) =>
    c.json(
      { error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } },
      404,
    ),
  )
  app.onError((err, c) => {
    const response = toErrorResponse(err)
    if (response.unexpected) ctx.onError(err)
    return c.json(response.body, response.status)
  })
  return app
}
