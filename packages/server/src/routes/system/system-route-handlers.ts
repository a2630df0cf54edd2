import { routes } from '@svcdb/contract'
import type { Auth } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import { createSseStream, envelopeToSseMessage, parseEventsParam, SSE_HEADERS } from '@svcdb/events'
import type { EventBus } from '@svcdb/events'
import { ServerError } from '../../errors/server-error'
import type { DiskSampler } from '../../observability/disk-sampler'
import type { ServerMetrics } from '../../observability/server-metrics'
import { statsSnapshot } from '../../observability/stats-snapshot'
import type { StatsIdentity } from '../../observability/stats-snapshot'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'

/** What stats, metrics and the event stream use. */
export interface SystemRoutesContext {
  db: Database
  auth: Auth
  bus: EventBus
  disk: DiskSampler
  metrics: ServerMetrics
  identity: StatsIdentity
  now(): number
  /** Ends open event streams on shutdown. */
  shutdown: AbortSignal
}

/** `/system/stats`, `/system/metrics` and `/system/events` (token). */
export function systemRouteHandlers(ctx: SystemRoutesContext): RouteHandler[] {
  return [
    handleRoute(routes.systemStats, (c) =>
      c.json(statsSnapshot(ctx.db.stats(), ctx.disk.latest(), ctx.identity, ctx.now()), 200),
    ),
    handleRoute(routes.systemMetrics, async (c) => {
      const text = await ctx.metrics.registry.metrics()
      return c.body(text, 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' })
    }),
    handleRoute(routes.systemEvents, async (c, { query }) => {
      let events
      try {
        events = parseEventsParam(query.events)
      } catch (err) {
        throw new ServerError('BAD_REQUEST', (err as Error).message)
      }
      const principal = c.get('principal')
      // Resolved once per stream: the filter's check runs synchronously for every event.
      const access = principal === undefined ? undefined : await ctx.auth.accessFor(principal)
      const subscription = ctx.bus.subscribe({
        events,
        pathPrefix: query.path_prefix,
        lastEventId: c.req.header('last-event-id'),
        canRead: access === undefined ? undefined : (path) => access.allows(path, 'read'),
      })
      const signal = AbortSignal.any([c.req.raw.signal, ctx.shutdown])
      const stream = createSseStream({ source: subscription, encode: envelopeToSseMessage, signal })
      return c.body(stream, 200, { ...SSE_HEADERS })
    }),
  ]
}
