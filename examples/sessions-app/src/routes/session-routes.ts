import { createSseStream, SSE_HEADERS } from '@svcdb/events'
import { Hono } from 'hono'
import * as v from 'valibot'
import { SessionsAppError } from '../errors'
import { jsonBodyLimit } from '../json-body-limit'
import { newSession, sessionInputSchema, sessionMeta } from '../session'
import { SESSIONS_APP_ROUTES } from '../session-event'
import type { SessionFeed } from '../session-feed'
import { newSessionId, sessionIdSchema } from '../session-id'
import type { SessionStore } from '../session-store'
import { parseInput, readJsonBody } from '../validate-input'
import { honoPath } from './hono-path'

/** What the session routes use. */
export interface SessionRoutesContext {
  store: SessionStore
  feed: SessionFeed
  now(): number
  /** Ends open streams when the app closes. */
  shutdown: AbortSignal
  pingIntervalMs: number
  maxBodyBytes: number
}

const metaParamsSchema = v.object({ id: sessionIdSchema })

/** `POST /api/v1/sessions`, `GET /api/v1/sessions/events` and `GET /api/v1/sessions/{id}/meta`. */
export function sessionRoutes(ctx: SessionRoutesContext): Hono {
  const app = new Hono()

  app.post(SESSIONS_APP_ROUTES.sessionSubmit, jsonBodyLimit(ctx.maxBodyBytes), async (c) => {
    const input = parseInput('body', sessionInputSchema, await readJsonBody(c))
    const session = newSession(input, input.id ?? newSessionId(), ctx.now())
    await ctx.store.create(session, { signal: c.req.raw.signal })
    // No `created` event here: it comes from svcdb's stream, like those of other instances.
    c.header('location', SESSIONS_APP_ROUTES.sessionMeta.replace('{id}', session.id))
    return c.json(session, 201)
  })

  app.get(SESSIONS_APP_ROUTES.sessionEvents, (c) => {
    const source = ctx.feed.subscribe(c.req.header('last-event-id'))
    const stream = createSseStream({
      source,
      encode: ctx.feed.encode,
      pingIntervalMs: ctx.pingIntervalMs,
      signal: AbortSignal.any([c.req.raw.signal, ctx.shutdown]),
    })
    return c.body(stream, 200, { ...SSE_HEADERS })
  })

  app.get(honoPath(SESSIONS_APP_ROUTES.sessionMeta), async (c) => {
    const { id } = parseInput('params', metaParamsSchema, c.req.param())
    const options = { signal: c.req.raw.signal }
    const [session, dispatch] = await Promise.all([
      ctx.store.read(id, options),
      ctx.store.readDispatch(id, options),
    ])
    if (session === undefined) throw new SessionsAppError('NOT_FOUND', `no session '${id}'`)
    return c.json(sessionMeta(session, dispatch), 200)
  })

  return app
}
