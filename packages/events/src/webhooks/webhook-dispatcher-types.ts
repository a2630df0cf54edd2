import type { Clock } from '../clock'
import type { EventsError } from '../errors'
import type { EventBus } from '../event-bus'
import type { DestinationAllowList } from './destination-allow-list'
import type { RetryPolicy } from './retry-policy'
import type { WebhookLeases } from './webhook-lock'
import type { WebhookQueue } from './webhook-queue'
import type { WebhooksLoadResult } from './webhook-set'
import type { WebhookConfig } from './webhooks-config'

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  bus: EventBus
  /** Durable store of pending deliveries. */
  queue: WebhookQueue
  /** Destinations that may be called (see `createDestinationAllowList`); nothing when empty. */
  allow: readonly string[] | DestinationAllowList
  /** Webhooks to start with; none by default. */
  webhooks?: readonly WebhookConfig[]
  /** Schedules retries; the bus's clock by default. */
  clock?: Clock
  /** The HTTP client; the global `fetch` by default. */
  fetch?: typeof globalThis.fetch
  retry?: Partial<RetryPolicy>
  /** Deliveries in flight at once; default 4. */
  concurrency?: number
  /** Time limit of one attempt; default 10,000 ms. */
  timeoutMs?: number
  /** Events waiting to be queued before the oldest are dropped; default 10,000. */
  backlog?: number
  /** Told about failures: `WEBHOOK_DELIVERY_FAILED`, `DESTINATION_NOT_ALLOWED`. */
  onError?: (err: EventsError) => void
  /** Makes delivery ids; `crypto.randomUUID` by default. Unused with `leases`. */
  newDeliveryId?: () => string
  /**
   * Set when several nodes share `queue` (each with its own dispatcher, all seeing the same
   * events with the same `event_id`): every node queues each delivery, at most one record
   * results (id `<webhook id>:<event_id>`, `queue.add`), and only the node holding the lock
   * `webhooks` delivers, settling deliveries with compare-and-set (`replace`, `finish`).
   */
  leases?: WebhookLeases
  /** With `leases`: how often a node tries to take the lock, and the holder re-reads the queue; default 5,000 ms. */
  lockRetryMs?: number
  /**
   * With `leases`: how long a finished delivery's id is remembered, so a node seeing its event
   * late does not queue it again; default 3,600,000 ms (one hour).
   */
  finishedRetentionMs?: number
}

/** Counters of the dispatcher since it started, for metrics. */
export interface WebhookStats {
  /** Deliveries queued. */
  readonly enqueued: number
  /** Deliveries answered with 2xx. */
  readonly delivered: number
  /** Failed attempts that were rescheduled. */
  readonly retried: number
  /** Deliveries given up after the last attempt. */
  readonly failed: number
  /** Deliveries dropped because their webhook was removed, deactivated or disallowed. */
  readonly discarded: number
  /** Events dropped before queueing because the dispatcher fell behind. */
  readonly eventsDropped: number
  readonly inFlight: number
}

/** Delivers bus events to configured webhooks through a durable queue. */
export interface WebhookDispatcher {
  /** Replaces the webhooks; ones whose URL is not allowed are rejected. */
  configure(webhooks: readonly WebhookConfig[]): WebhooksLoadResult
  /**
   * Parses a `/.svcdb/webhooks.json` text and applies it. A bad file is reported in the result
   * (`INVALID_WEBHOOK_CONFIG`) and the webhooks in effect stay as they were.
   */
  load(text: string | Uint8Array): WebhooksLoadResult
  /** The webhooks in effect. */
  readonly webhooks: readonly WebhookConfig[]
  stats(): WebhookStats
  /** Resolves once every received event is queued and no delivery is in flight or due. */
  idle(): Promise<void>
  /** Stops: no more events are taken, attempts in flight are aborted (and stay queued). */
  close(): Promise<void>
}
