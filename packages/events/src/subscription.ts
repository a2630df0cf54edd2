import type { EventFilter } from './event-filter'
import type { EventEnvelope } from './event-types'
import { iterateBatches } from './internal/batch-iterator'
import type { Mailbox } from './internal/mailbox'

/**
 * One subscriber's view of the bus: a bounded queue of the events it may see. A consumer that
 * falls behind silently loses the oldest queued events; `dropped` counts them.
 */
export interface Subscription extends AsyncIterable<EventEnvelope> {
  /**
   * Resolves with up to `max` events as soon as one is available (events published in the same
   * tick arrive together), or with an empty array once the subscription is closed. One caller
   * at a time.
   */
  take(max?: number): Promise<EventEnvelope[]>
  /** Stops the subscription: frees its queue and ends a waiting `take` or `for await`. */
  close(): void
  readonly closed: boolean
  /** Events queued and not yet taken. */
  readonly pending: number
  /** Events dropped because the queue was full. */
  readonly dropped: number
}

/** A replay in progress: buffered events after `cursor`, up to `end`. */
export interface ReplayCursor {
  /** Seq of the last event considered. */
  cursor: number
  /** Seq of the newest event when the subscription started. */
  readonly end: number
  /** The `Last-Event-ID` it started from. */
  readonly from: string
}

/** What a subscription needs from its bus. */
export interface SubscriptionHost {
  /** Reads the next replayed events, or one `events_lost` when the buffer overtook the cursor. */
  readReplay(replay: ReplayCursor, filter: EventFilter, max: number): EventEnvelope[]
  detach(subscription: BusSubscription): void
}

/**
 * The bus's subscription: a notice to deliver first (`events_lost`), then a replay cursor,
 * then the live mailbox. A class so that a thousand subscribers share its methods.
 */
export class BusSubscription implements Subscription {
  readonly filter: EventFilter
  readonly mailbox: Mailbox<EventEnvelope>
  readonly #host: SubscriptionHost
  #notice: EventEnvelope | undefined
  #replay: ReplayCursor | undefined

  constructor(
    host: SubscriptionHost,
    filter: EventFilter,
    mailbox: Mailbox<EventEnvelope>,
    start: ReplayCursor | EventEnvelope | undefined,
  ) {
    this.#host = host
    this.filter = filter
    this.mailbox = mailbox
    if (start !== undefined && 'event_id' in start) this.#notice = start
    else if (start !== undefined && start.cursor < start.end) this.#replay = start
  }

  get closed() {
    return this.mailbox.closed
  }

  get pending() {
    return this.mailbox.pending
  }

  get dropped() {
    return this.mailbox.dropped
  }

  take(max = Number.POSITIVE_INFINITY): Promise<EventEnvelope[]> {
    if (!this.mailbox.closed) {
      const notice = this.#notice
      if (notice !== undefined) {
        this.#notice = undefined
        return Promise.resolve([notice])
      }
      const replay = this.#replay
      if (replay !== undefined && max >= 1) {
        const batch = this.#host.readReplay(replay, this.filter, max)
        if (replay.cursor >= replay.end) this.#replay = undefined
        // After a loss the client resyncs, which covers what was queued live meanwhile.
        if (batch[0]?.event_type === 'events_lost') this.mailbox.clear()
        if (batch.length > 0) return Promise.resolve(batch)
      }
    }
    return this.mailbox.take(max)
  }

  close(): void {
    this.#host.detach(this)
    this.mailbox.close()
    this.#replay = undefined
    this.#notice = undefined
  }

  [Symbol.asyncIterator](): AsyncIterator<EventEnvelope> {
    return iterateBatches(
      () => this.take(),
      () => this.close(),
    )
  }
}
