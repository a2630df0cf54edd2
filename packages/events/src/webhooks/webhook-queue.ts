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
  /**
   * Stores a delivery only if no delivery with its id is queued or was finished since the last
   * `prune`: atomic across every writer of the store, so when nodes race to queue the same
   * delivery exactly one gets `true`.
   */
  add(delivery: WebhookDelivery): Promise<boolean>
  /**
   * Replaces `current` by `next` (same id) only if the stored delivery is still `current`
   * (same `attempts` and `nextAttemptAt`); `false`, changing nothing, otherwise.
   */
  replace(current: WebhookDelivery, next: WebhookDelivery): Promise<boolean>
  /**
   * Removes `current` if it is still stored as it was (as `replace` compares), leaving a trace
   * stamped `at` (Unix ms) that makes `add` of its id refuse until pruned; `false` otherwise.
   */
  finish(current: WebhookDelivery, at: number): Promise<boolean>
  /** Forgets up to `limit` traces of deliveries finished before `before`; resolves how many. */
  prune(before: number, limit: number): Promise<number>
}
