import { createSseStream, SSE_HEADERS } from '@svcdb/events'
import type { ChannelHub, ChannelMessage, SseMessage } from '@svcdb/events'
import { Hono } from 'hono'
import * as v from 'valibot'
import { channelNameSchema } from '../channel-name'
import { jsonBodyLimit } from '../json-body-limit'
import { jsonObjectSchema } from '../json-object'
import { SESSIONS_APP_ROUTES } from '../session-event'
import { parseInput, readJsonBody } from '../validate-input'

/** What the channel routes use. */
export interface ChannelRoutesContext {
  channels: ChannelHub<unknown>
  /** Ends open streams when the app closes. */
  shutdown: AbortSignal
  pingIntervalMs: number
  maxBodyBytes: number
}

const eventsQuerySchema = v.object({ name: channelNameSchema })

/** `{name, event}`: `event` is any JSON value, `null` included, but must be present. */
const sendBodySchema = v.pipe(
  jsonObjectSchema,
  v.strictObject({ name: channelNameSchema, event: v.unknown() }),
)

// One encode function for every stream, so a message fanned out to many subscribers is
// serialised once (createSseStream caches frames per encode function).
const encodeChannelMessage = (message: ChannelMessage<unknown>): SseMessage => ({
  id: message.id,
  data: JSON.stringify(message.data),
})

/** `GET /api/v1/channels/events?name=` and `POST /api/v1/channels/send`. */
export function channelRoutes(ctx: ChannelRoutesContext): Hono {
  const app = new Hono()

  app.get(SESSIONS_APP_ROUTES.channelEvents, (c) => {
    const { name } = parseInput('query', eventsQuerySchema, c.req.query())
    const stream = createSseStream({
      source: ctx.channels.subscribe(name),
      encode: encodeChannelMessage,
      pingIntervalMs: ctx.pingIntervalMs,
      signal: AbortSignal.any([c.req.raw.signal, ctx.shutdown]),
    })
    return c.body(stream, 200, { ...SSE_HEADERS })
  })

  app.post(SESSIONS_APP_ROUTES.channelSend, jsonBodyLimit(ctx.maxBodyBytes), async (c) => {
    const { name, event } = parseInput('body', sendBodySchema, await readJsonBody(c))
    const { message, delivered } = ctx.channels.publish(name, event)
    return c.json({ id: message.id, channel: name, delivered }, 202)
  })

  return app
}
