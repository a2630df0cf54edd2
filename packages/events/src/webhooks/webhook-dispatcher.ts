import type { CancelTimer, Clock } from '../clock'
import { EventsError, isEventsError } from '../errors'
import type { EventBus } from '../event-bus'
import type { BusEventType, EventEnvelope } from '../event-types'
import { createDestinationAllowList } from './destination-allow-list'
import type { DestinationAllowList } from './destination-allow-list'
import { resolveRetryPolicy, retryDelay } from './retry-policy'
import type { RetryPolicy } from './retry-policy'
import { sendWebhook } from './send-webhook'
import { compileWebhooks } from './webhook-set'
import type { ActiveWebhook, WebhooksLoadResult } from './webhook-set'
import type { WebhookQueue, WebhookDelivery } from './webhook-queue'
import { parseWebhooksConfig } from './webhooks-config'
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
  /** Makes delivery ids; `crypto.randomUUID` by default. */
  newDeliveryId?: () => string
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const message = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * Starts delivering events to webhooks: every matching event becomes a queued delivery, POSTed
 * signed with HMAC-SHA256 and retried with capped exponential backoff until it is answered
 * with 2xx or its attempts run out. Deliveries already in the queue (from before a restart) are
 * resumed once webhooks are configured (`webhooks` option, `configure` or a valid `load`);
 * until then they wait. Delivery is at least once and unordered; receivers de-duplicate by
 * `X-Svcdb-Delivery` and order by `event_id`.
 *
 * @example
 * const webhooks = createWebhookDispatcher({ bus, queue, allow: ['https://*.example.com'] })
 * const result = webhooks.load(await readConfigFile())
 * if (!result.ok) logger.warn(result.error.message)
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { bus, queue, onError } = options
  const clock = options.clock ?? bus.clock
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const policy = resolveRetryPolicy(options.retry)
  const concurrency = options.concurrency ?? 4
  const timeoutMs = options.timeoutMs ?? 10_000
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new RangeError('concurrency must be a positive integer')
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive')
  const allow = Array.isArray(options.allow)
    ? createDestinationAllowList(options.allow as readonly string[])
    : (options.allow as DestinationAllowList)
  const newDeliveryId = options.newDeliveryId ?? (() => globalThis.crypto.randomUUID())
  const subscription = bus.subscribe({ queueSize: options.backlog ?? 10_000 })
  const shutdown = new AbortController()
  const inFlight = new Map<string, Promise<void>>()
  const counts = { enqueued: 0, delivered: 0, retried: 0, failed: 0, discarded: 0 }
  let hooks = new Map<string, ActiveWebhook>()
  let pumping = false
  // The drain pass running, awaited by `close` so no queue read outlives the dispatcher.
  let draining: Promise<void> | undefined
  let drainAgain = false
  let cancelTimer: CancelTimer | undefined
  let closed = false
  // Until the first configuration, queued deliveries wait: their webhooks are not known yet.
  let configured = false

  const report = (err: EventsError) => onError?.(err)
  const failed = (text: string, cause?: unknown) =>
    report(new EventsError('WEBHOOK_DELIVERY_FAILED', text, cause === undefined ? {} : { cause }))

  const configure = (webhooks: readonly WebhookConfig[]): WebhooksLoadResult => {
    const compiled = compileWebhooks(webhooks, allow)
    hooks = compiled.hooks
    configured = true
    void drain()
    return compiled.result
  }

  // Resolves with the deliveries it queued.
  const enqueue = async (event: EventEnvelope): Promise<number> => {
    let queued = 0
    for (const hook of hooks.values()) {
      if (hook.filter(event) === undefined) continue
      const delivery: WebhookDelivery = {
        id: newDeliveryId(),
        webhookId: hook.config.id,
        eventId: event.event_id,
        eventType: event.event_type as BusEventType,
        body: JSON.stringify(event),
        attempts: 0,
        nextAttemptAt: clock.now(),
        createdAt: clock.now(),
      }
      try {
        await queue.put(delivery)
        counts.enqueued++
        queued++
      } catch (cause) {
        failed(
          `could not queue ${event.event_id} for '${hook.config.id}': ${message(cause)}`,
          cause,
        )
      }
    }
    return queued
  }

  const attempt = async (delivery: WebhookDelivery) => {
    const hook = hooks.get(delivery.webhookId)
    if (hook === undefined || !allow.allows(hook.config.url)) {
      await queue.remove(delivery.id)
      counts.discarded++
      return
    }
    const result = await sendWebhook({
      fetch: doFetch,
      url: hook.config.url,
      secret: hook.config.secret,
      delivery,
      timeoutMs,
      signal: shutdown.signal,
    })
    if (result.ok) {
      await queue.remove(delivery.id)
      counts.delivered++
      return
    }
    const attempts = delivery.attempts + 1
    const error = result.error ?? 'failed'
    if (shutdown.signal.aborted) return // stays queued as it was, resumed after a restart
    if (attempts >= policy.maxAttempts) {
      await queue.remove(delivery.id)
      counts.failed++
      const what = `delivery ${delivery.id} of ${delivery.eventId} to webhook '${delivery.webhookId}'`
      failed(`${what} failed ${attempts} times, last: ${error}`)
      return
    }
    await queue.put({
      ...delivery,
      attempts,
      lastError: error,
      nextAttemptAt: clock.now() + retryDelay(policy, attempts),
    })
    counts.retried++
  }

  const start = (delivery: WebhookDelivery) => {
    const run = attempt(delivery)
      .catch((cause: unknown) => failed(`webhook queue failed: ${message(cause)}`, cause))
      .finally(() => {
        inFlight.delete(delivery.id)
        void drain()
      })
    inFlight.set(delivery.id, run)
  }

  // Starts due deliveries up to the concurrency limit and sets a timer for the next one.
  const drain = (): Promise<void> => {
    if (closed || !configured) return Promise.resolve()
    if (draining !== undefined) {
      drainAgain = true
      return draining
    }
    draining = drainPasses().finally(() => {
      draining = undefined
    })
    return draining
  }

  const drainPasses = async (): Promise<void> => {
    try {
      do {
        drainAgain = false
        cancelTimer?.()
        cancelTimer = undefined
        if (inFlight.size < concurrency) {
          const due = await queue.due(clock.now(), concurrency + inFlight.size)
          for (const delivery of due)
            if (!closed && inFlight.size < concurrency && !inFlight.has(delivery.id))
              start(delivery)
        }
        const next = await queue.nextDueAt()
        const now = clock.now()
        if (!closed && next !== undefined && next > now)
          cancelTimer = clock.setTimer(() => void drain(), next - now)
      } while (drainAgain && !closed)
    } catch (cause) {
      failed(`webhook queue failed: ${message(cause)}`, cause)
    }
  }

  const pump = async () => {
    for (;;) {
      const events = await subscription.take(256)
      if (events.length === 0) return
      pumping = true
      let queued = 0
      for (const event of events) queued += await enqueue(event)
      pumping = false
      // Events no webhook wants change nothing in the queue: no need to read it again (two
      // queue reads per commit otherwise, with no webhook configured).
      if (queued > 0) void drain()
    }
  }

  const pumped = pump()
  if (options.webhooks !== undefined) configure(options.webhooks)

  return {
    configure,
    load(text) {
      try {
        return configure(parseWebhooksConfig(text))
      } catch (err) {
        if (isEventsError(err)) return { ok: false, error: err }
        const error = new EventsError('INVALID_WEBHOOK_CONFIG', message(err), { cause: err })
        return { ok: false, error }
      }
    },
    get webhooks() {
      return [...hooks.values()].map((hook) => hook.config)
    },
    stats: () => ({ ...counts, eventsDropped: subscription.dropped, inFlight: inFlight.size }),
    async idle() {
      for (;;) {
        await (inFlight.size > 0
          ? Promise.race([Promise.all(inFlight.values()), sleep(5)])
          : sleep(1))
        if (pumping || draining || subscription.pending > 0 || inFlight.size > 0) continue
        const next = closed || !configured ? undefined : await queue.nextDueAt()
        if (next === undefined || next > clock.now()) return
        void drain()
      }
    },
    async close() {
      if (closed) return
      closed = true
      cancelTimer?.()
      subscription.close()
      shutdown.abort()
      // Whatever still reads or writes the queue finishes before the caller closes its store.
      await Promise.all([pumped, draining, ...inFlight.values()])
    },
  }
}
