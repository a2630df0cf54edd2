import type { CancelTimer } from '../clock'
import { EventsError, isEventsError } from '../errors'
import type { BusEventType, EventEnvelope } from '../event-types'
import { createDestinationAllowList } from './destination-allow-list'
import type { DestinationAllowList } from './destination-allow-list'
import { createDeliveryAttempt } from './delivery-attempt'
import { resolveRetryPolicy } from './retry-policy'
import { contendForLock } from './webhook-lock'
import type { LockContention } from './webhook-lock'
import { compileWebhooks } from './webhook-set'
import type { ActiveWebhook, WebhooksLoadResult } from './webhook-set'
import type { WebhookDelivery } from './webhook-queue'
import { parseWebhooksConfig } from './webhooks-config'
import type { WebhookConfig } from './webhooks-config'
import type { WebhookDispatcher, WebhookDispatcherOptions } from './webhook-dispatcher-types'

// The types live beside, to keep this file to the behaviour; the package index names them here.
export type {
  WebhookDispatcher,
  WebhookDispatcherOptions,
  WebhookStats,
} from './webhook-dispatcher-types'

/** The lock whose holder delivers, with `leases`. */
const LOCK_NAME = 'webhooks'
// Traces of finished deliveries dropped per pass of the lock holder.
const PRUNE_BATCH = 1_000

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
  const { leases } = options
  const lockRetryMs = options.lockRetryMs ?? 5_000
  const retentionMs = options.finishedRetentionMs ?? 3_600_000
  if (!(lockRetryMs > 0)) throw new RangeError('lockRetryMs must be positive')
  if (!(retentionMs >= 0)) throw new RangeError('finishedRetentionMs must not be negative')
  const allow = Array.isArray(options.allow)
    ? createDestinationAllowList(options.allow as readonly string[])
    : (options.allow as DestinationAllowList)
  const newDeliveryId = options.newDeliveryId ?? (() => globalThis.crypto.randomUUID())
  const subscription = bus.subscribe({ queueSize: options.backlog ?? 10_000 })
  const shutdown = new AbortController()
  const inFlight = new Map<string, Promise<void>>()
  // Ids whose attempt ended since the queue read in progress began: that read may still return
  // them as they were before, and starting them again would POST them twice.
  const endedDuringRead = new Set<string>()
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
  // With leases: aborted when the lock is lost or the dispatcher closes; undefined while not held.
  let holding: AbortController | undefined
  let contention: LockContention | undefined
  let cancelPoll: CancelTimer | undefined
  const active = () => !closed && configured && (leases === undefined || holding !== undefined)

  const report = (err: EventsError) => onError?.(err)
  const failed = (text: string, cause?: unknown) =>
    report(new EventsError('WEBHOOK_DELIVERY_FAILED', text, cause === undefined ? {} : { cause }))

  const configure = (webhooks: readonly WebhookConfig[]): WebhooksLoadResult => {
    const compiled = compileWebhooks(webhooks, allow)
    hooks = compiled.hooks
    configured = true
    if (leases !== undefined && contention === undefined && !closed)
      contention = contendForLock({
        leases,
        name: LOCK_NAME,
        clock,
        retryMs: lockRetryMs,
        hold,
        onError: (cause) => failed(`webhook lock failed: ${message(cause)}`, cause),
      })
    void drain()
    return compiled.result
  }

  // Resolves with the deliveries it queued (with leases: found queued by any node).
  const enqueue = async (event: EventEnvelope): Promise<number> => {
    let queued = 0
    for (const hook of hooks.values()) {
      if (hook.filter(event) === undefined) continue
      const delivery: WebhookDelivery = {
        // Shared: the same id on every node, so their records collide and only one is kept.
        id: leases === undefined ? newDeliveryId() : `${hook.config.id}:${event.event_id}`,
        webhookId: hook.config.id,
        eventId: event.event_id,
        eventType: event.event_type as BusEventType,
        body: JSON.stringify(event),
        attempts: 0,
        nextAttemptAt: clock.now(),
        createdAt: clock.now(),
      }
      try {
        if (leases === undefined) await queue.put(delivery)
        // Another node queued it first (or it was already delivered): nothing to count.
        else if (!(await queue.add(delivery))) {
          queued++
          continue
        }
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

  const attempt = createDeliveryAttempt({
    queue,
    shared: leases !== undefined,
    clock,
    fetch: doFetch,
    timeoutMs,
    policy,
    allow,
    counts,
    webhook: (id) => hooks.get(id),
    failed: (text) => failed(text),
  })

  const start = (delivery: WebhookDelivery) => {
    const run = attempt(delivery, holding?.signal ?? shutdown.signal)
      .catch((cause: unknown) => failed(`webhook queue failed: ${message(cause)}`, cause))
      .finally(() => {
        inFlight.delete(delivery.id)
        endedDuringRead.add(delivery.id)
        void drain()
      })
    inFlight.set(delivery.id, run)
  }

  // Starts due deliveries up to the concurrency limit and sets a timer for the next one.
  const drain = (): Promise<void> => {
    if (!active()) return Promise.resolve()
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
          endedDuringRead.clear()
          const due = await queue.due(clock.now(), concurrency + inFlight.size)
          for (const delivery of due)
            if (
              active() &&
              inFlight.size < concurrency &&
              !inFlight.has(delivery.id) &&
              !endedDuringRead.has(delivery.id)
            )
              start(delivery)
        }
        const next = await queue.nextDueAt()
        const now = clock.now()
        if (active() && next !== undefined && next > now)
          cancelTimer = clock.setTimer(() => void drain(), next - now)
      } while (drainAgain && active())
    } catch (cause) {
      failed(`webhook queue failed: ${message(cause)}`, cause)
    }
  }

  // The lock holder re-reads the queue now and then: events its own bus dropped were queued by
  // other nodes, and a previous holder's retries are due at times only the queue knows.
  const poll = async () => {
    cancelPoll = undefined
    if (!active()) return
    try {
      await queue.prune(clock.now() - retentionMs, PRUNE_BATCH)
    } catch (cause) {
      failed(`webhook queue failed: ${message(cause)}`, cause)
    }
    await drain()
    if (active()) cancelPoll = clock.setTimer(() => void poll(), lockRetryMs)
  }

  // Runs while this node holds the lock: delivers until the lock is lost or the dispatcher closes.
  const hold = async (lost: AbortSignal) => {
    if (closed) return
    const held = new AbortController()
    const release = () => held.abort()
    lost.addEventListener('abort', release, { once: true })
    holding = held
    await poll()
    await new Promise<void>((resolve) => {
      if (held.signal.aborted) resolve()
      else held.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    lost.removeEventListener('abort', release)
    holding = undefined
    cancelPoll?.()
    cancelTimer?.()
    // Attempts in flight were aborted with `held`: let them finish before the lock goes.
    await Promise.all([draining, ...inFlight.values()])
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
        // A node without the lock leaves due deliveries to the holder.
        const next = active() ? await queue.nextDueAt() : undefined
        if (next === undefined || next > clock.now()) return
        void drain()
      }
    },
    async close() {
      if (closed) return
      closed = true
      cancelTimer?.()
      cancelPoll?.()
      subscription.close()
      shutdown.abort()
      holding?.abort()
      // Whatever still reads or writes the queue finishes before the caller closes its store.
      await Promise.all([pumped, draining, ...inFlight.values(), contention?.stop()])
    },
  }
}
