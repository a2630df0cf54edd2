import type { BusEventType } from '../event-types'

/** One pending webhook POST: an event for one webhook, with its retry state. */
export interface WebhookDelivery {
  /** Unique; sent as `X-Svcdb-Delivery` and kept across retries so receivers can de-duplicate. */
  readonly id: string
  readonly webhookId: string
  readonly eventId: string
  readonly eventType: BusEventType
  /** The exact JSON envelope that is signed and sent. */
  readonly body: string
  /** Attempts made so far. */
  readonly attempts: number
  /** Unix ms at or after which the next attempt is due. */
  readonly nextAttemptAt: number
  /** Unix ms the delivery was queued. */
  readonly createdAt: number
  /** Why the last attempt failed. */
  readonly lastError?: string
}

/**
 * The durable delivery queue of webhooks (a port). The in-memory implementation is
 * {@link createMemoryWebhookQueue}; the server stores deliveries in its database. Every
 * implementation must pass `testWebhookQueue` from `@svcdb/events/testing`.
 */
export interface WebhookQueue {
  /** Stores a delivery, replacing one with the same id; resolves once it is durable. */
  put(delivery: WebhookDelivery): Promise<void>
  /** The delivery with this id, if queued. */
  get(id: string): Promise<WebhookDelivery | undefined>
  /** Removes a delivery; removing an absent id does nothing. */
  remove(id: string): Promise<void>
  /** Up to `limit` deliveries with `nextAttemptAt <= now`, by `nextAttemptAt`, then `id`. */
  due(now: number, limit: number): Promise<WebhookDelivery[]>
  /** The earliest `nextAttemptAt` queued, undefined when empty. */
  nextDueAt(): Promise<number | undefined>
  /** Deliveries queued. */
  size(): Promise<number>
}
