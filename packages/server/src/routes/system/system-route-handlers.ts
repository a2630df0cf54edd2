import { routes } from '@svcdb/contract'
import type { Auth } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import { createSseStream, envelopeToSseMessage, parseEventsParam, SSE_HEADERS } from '@svcdb/events'
import type { EventBus } from '@svcdb/events'
import { checkInventory, seesServerPaths } from '../../auth/inventory-access'
import { ServerError } from '../../errors/server-error'
import type { DiskSampler } from '../../observability/disk-sampler'
import type { ServerMetrics } from '../../observability/server-metrics'
import { statsSnapshot } from '../../observability/stats-snapshot'
import type { StatsIdentity } from '../../observability/stats-snapshot'
import type { Authenticator } from '../../routing/principal'
import type { SyncSection } from '../../peers/peer-status-book'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import { accessOf } from '../files/file-access'
import { createPermissionWatch, watchAccess } from './live-access'
import type { PermissionWatch } from './live-access'

/** What stats, metrics and the event stream use. */
export interface SystemRoutesContext {
  db: Database
  auth: Auth
  /** Re-checks a stream's credential while it is open. */
  authenticator: Authenticator
  bus: EventBus
  disk: DiskSampler
  metrics: ServerMetrics
  identity: StatsIdentity
  now(): number
  /** Ends open event streams on shutdown. */
  shutdown: AbortSignal
  /** How often a stream re-resolves its caller's permissions; default 5000 ms. */
  accessRefreshMs?: number
  /** The stats `sync` section, given only while replication is active (spec). */
  sync?: () => Promise<SyncSection>
}

/**
 * `/system/stats`, `/system/metrics` and `/system/events` (token). Stats and metrics describe
 * the whole database, so they take `list` on `/` and are never a share link's; the
 * database's filesystem path is root's alone.
 */
export function systemRouteHandlers(ctx: SystemRoutesContext): RouteHandler[] {
  // Made with the first stream, so a server without streams holds no extra subscription.
  let watch: PermissionWatch | undefined
  // Empty rather than absent, so the stats keep the spec's shape for every caller.
  const hiddenPath = { ...ctx.identity, databasePath: '' }
  return [
    handleRoute(routes.systemStats, async (c) => {
      const access = await accessOf(c, ctx.auth)
      checkInventory(access, '/system/stats')
      const identity = seesServerPaths(access.principal) ? ctx.identity : hiddenPath
      // Counts and sizes of the whole database: other nodes' commits included.
      await ctx.db.refresh()
      const stats = statsSnapshot(ctx.db.stats(), ctx.disk.latest(), identity, ctx.now())
      const sync = ctx.sync === undefined ? undefined : await ctx.sync()
      return sendView(c, routes.systemStats, sync === undefined ? stats : { ...stats, sync }, 200)
    }),
    handleRoute(routes.systemMetrics, async (c) => {
      checkInventory(await accessOf(c, ctx.auth), '/system/metrics')
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
      const revoked = new AbortController()
      // The filter runs synchronously per event, so access is resolved ahead and kept current.
      const access = await watchAccess({
        auth: ctx.auth,
        authenticator: ctx.authenticator,
        request: c.req.raw,
        watch: (watch ??= createPermissionWatch(ctx.bus)),
        intervalMs: ctx.accessRefreshMs ?? 5000,
        onRevoked: () => revoked.abort(),
      })
      const subscription = ctx.bus.subscribe({
        events,
        pathPrefix: query.path_prefix,
        lastEventId: c.req.header('last-event-id'),
        canRead: (path) => access.allows(path),
        canSeeInventory: () => access.seesInventory(),
      })
      const signal = AbortSignal.any([c.req.raw.signal, ctx.shutdown, revoked.signal])
      signal.addEventListener('abort', () => access.stop(), { once: true })
      const stream = createSseStream({ source: subscription, encode: envelopeToSseMessage, signal })
      return c.body(stream, 200, { ...SSE_HEADERS })
    }),
  ]
}
