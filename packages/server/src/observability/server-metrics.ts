import type { Database } from '@svcdb/engine'
import type { EventBus } from '@svcdb/events'
import type { TaskRunner } from '@svcdb/scheduler'
import type { Context } from 'hono'
import { Gauge, Registry } from 'prom-client'
import type { AppEnv } from '../routing/app-env'
import { createRequestMetrics } from './request-metrics'

/** Prometheus metrics of a server: one registry, served by `GET /system/metrics`. */
export interface ServerMetrics {
  readonly registry: Registry
  /** Hono middleware counting requests by route and status and timing them. */
  observe(c: Context<AppEnv>, next: () => Promise<void>): Promise<void>
}

/** What the engine, task and event gauges read when scraped. */
export interface MetricsSources {
  db: Database
  bus: EventBus
  tasks: TaskRunner
  /** Webhook delivery counters, when webhooks are wired. */
  webhooks?: () => { delivered: number; failed: number; queued: number }
}

/**
 * Builds the registry (DESIGN §7): HTTP requests by route and status, latency histograms,
 * and gauges read from the engine's O(1) counters, the task list, the event bus and the
 * webhook dispatcher at scrape time.
 */
export function createServerMetrics(sources: MetricsSources): ServerMetrics {
  const registry = new Registry()
  const requests = createRequestMetrics(
    registry,
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  )
  const engine = (name: string, help: string, read: (s: ReturnType<Database['stats']>) => number) =>
    new Gauge({
      name: `svcdb_engine_${name}`,
      help,
      registers: [registry],
      collect() {
        this.set(read(sources.db.stats()))
      },
    })
  engine('files', 'Files in HEAD', (s) => s.counts.files)
  engine('directories', 'Directories in HEAD', (s) => s.counts.directories)
  engine('symlinks', 'Symlinks in HEAD', (s) => s.counts.symlinks)
  engine('chunks', 'Chunks stored', (s) => s.counts.chunks)
  engine('snapshots', 'Snapshots', (s) => s.counts.snapshots)
  engine('forks', 'Forks', (s) => s.counts.forks)
  engine('logical_bytes', 'Bytes of the files of HEAD', (s) => s.sizes.logicalData)
  engine('chunk_bytes', 'Bytes of stored chunks', (s) => s.sizes.chunkData)
  engine('void_bytes', 'Unreferenced bytes in pack files', (s) => s.sizes.voidSpace)
  engine(
    'write_buffer_depth',
    'Writes waiting for a group commit',
    (s) => s.health.writeBufferDepth,
  )
  engine(
    'writes_per_second',
    'Writes per second, 1-minute average',
    (s) => s.throughput.writesPerSec.m1,
  )
  engine(
    'reads_per_second',
    'Reads per second, 1-minute average',
    (s) => s.throughput.readsPerSec.m1,
  )
  engine(
    'gc_last_reclaimed_bytes',
    'Bytes the last GC reclaimed',
    (s) => s.health.gcLastReclaimedBytes,
  )
  new Gauge({
    name: 'svcdb_tasks',
    help: 'Tasks by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const counts = new Map<string, number>()
      for (const task of await sources.tasks.list())
        counts.set(task.status, (counts.get(task.status) ?? 0) + 1)
      this.reset()
      for (const [status, n] of counts) this.set({ status }, n)
    },
  })
  new Gauge({
    name: 'svcdb_event_subscribers',
    help: 'Open event-stream subscriptions',
    registers: [registry],
    collect() {
      this.set(sources.bus.subscriberCount)
    },
  })
  if (sources.webhooks !== undefined) {
    const read = sources.webhooks
    new Gauge({
      name: 'svcdb_webhook_deliveries',
      help: 'Webhook deliveries by outcome since start, and queued',
      labelNames: ['outcome'],
      registers: [registry],
      collect() {
        const s = read()
        this.set({ outcome: 'delivered' }, s.delivered)
        this.set({ outcome: 'failed' }, s.failed)
        this.set({ outcome: 'queued' }, s.queued)
      },
    })
  }
  return {
    registry,
    async observe(c, next) {
      const started = performance.now()
      try {
        await next()
      } finally {
        const route =
          c.req.routePath === '/*' || c.req.routePath === '' ? 'unmatched' : c.req.routePath
        requests.record(c.req.method, route, c.res.status, (performance.now() - started) / 1000)
      }
    },
  }
}
