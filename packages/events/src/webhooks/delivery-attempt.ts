import type { Clock } from '../clock'
import type { DestinationAllowList } from './destination-allow-list'
import { retryDelay } from './retry-policy'
import type { RetryPolicy } from './retry-policy'
import { sendWebhook } from './send-webhook'
import type { WebhookDelivery, WebhookQueue } from './webhook-queue'
import type { ActiveWebhook } from './webhook-set'

/** The dispatcher's counters an attempt moves. */
export interface DeliveryCounts {
  delivered: number
  retried: number
  failed: number
  discarded: number
}

/** Inputs of {@link createDeliveryAttempt}. */
export interface DeliveryAttemptOptions {
  queue: WebhookQueue
  /**
   * Several nodes share `queue`: settle with compare-and-set (`finish`, `replace`), so an
   * attempt from a stale read changes nothing; `remove` and `put` otherwise.
   */
  shared: boolean
  clock: Clock
  fetch: typeof globalThis.fetch
  timeoutMs: number
  policy: RetryPolicy
  allow: DestinationAllowList
  counts: DeliveryCounts
  /** The webhook in effect with this id, if any. */
  webhook: (id: string) => ActiveWebhook | undefined
  /** Told about a delivery given up. */
  failed: (text: string) => void
}

/**
 * Makes the function that runs one attempt of a queued delivery and settles it in the queue:
 * finished on 2xx or after its last attempt, rescheduled per `policy` otherwise, discarded
 * when its webhook is gone or no longer allowed. An attempt aborted by `signal` leaves the
 * delivery as it was.
 */
export function createDeliveryAttempt(
  options: DeliveryAttemptOptions,
): (delivery: WebhookDelivery, signal: AbortSignal) => Promise<void> {
  const { queue, shared, clock, policy, allow, counts } = options

  // Resolves false when, shared, someone settled the delivery since it was read.
  const settle = async (delivery: WebhookDelivery, next?: WebhookDelivery): Promise<boolean> => {
    if (shared)
      return next === undefined
        ? queue.finish(delivery, clock.now())
        : queue.replace(delivery, next)
    await (next === undefined ? queue.remove(delivery.id) : queue.put(next))
    return true
  }

  return async (delivery, signal) => {
    const hook = options.webhook(delivery.webhookId)
    if (hook === undefined || !allow.allows(hook.config.url)) {
      if (await settle(delivery)) counts.discarded++
      return
    }
    const result = await sendWebhook({
      fetch: options.fetch,
      url: hook.config.url,
      secret: hook.config.secret,
      delivery,
      timeoutMs: options.timeoutMs,
      signal,
    })
    if (result.ok) {
      await settle(delivery)
      counts.delivered++
      return
    }
    const attempts = delivery.attempts + 1
    const error = result.error ?? 'failed'
    // Stays queued as it was: resumed after a restart, or by the lock's next holder.
    if (signal.aborted) return
    if (attempts >= policy.maxAttempts) {
      if (!(await settle(delivery))) return
      counts.failed++
      const what = `delivery ${delivery.id} of ${delivery.eventId} to webhook '${delivery.webhookId}'`
      options.failed(`${what} failed ${attempts} times, last: ${error}`)
      return
    }
    const next = {
      ...delivery,
      attempts,
      lastError: error,
      nextAttemptAt: clock.now() + retryDelay(policy, attempts),
    }
    if (await settle(delivery, next)) counts.retried++
  }
}
