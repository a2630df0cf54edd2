import { comparePositions } from './change-log'
import type { ChangePosition } from './change-log'
import type { EventFilter } from './event-filter'
import type { EventEnvelope } from './event-types'
import { iterateBatches } from './internal/batch-iterator'
import { parseChangeEventId } from './internal/change-event-id'
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
  /** After a replay from the change log: change events at or before it are skipped. */
  readonly floor?: ChangePosition
  /** After a replay from the change log: other events up to this seq are skipped (old news). */
  readonly localAfter?: number
}

/**
 * An asynchronous first stage: the replay of change events from the database's change log,
 * for a `Last-Event-ID` the replay buffer does not hold.
 */
export interface ReplayPrelude {
  /** The next batch (empty when the filter dropped it all), or `undefined` once it ended. */
  next(filter: EventFilter, max: number): Promise<EventEnvelope[] | undefined>
  /**
   * Called once it ended, in the same turn as the live queue is cleared: what follows (a
   * buffer replay, a notice, or nothing: the live queue).
   */
  finish(): ReplayCursor | EventEnvelope | undefined
  /** The position of the last change event it covered. */
  readonly floor: ChangePosition | undefined
  /** Stops a replay in progress. */
  close(): void
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
  #prelude: ReplayPrelude | undefined
  /** After a replay from the change log: live change events up to here were delivered already. */
  #floor: ChangePosition | undefined

  constructor(
    host: SubscriptionHost,
    filter: EventFilter,
    mailbox: Mailbox<EventEnvelope>,
    start: ReplayCursor | EventEnvelope | ReplayPrelude | undefined,
  ) {
    this.#host = host
    this.filter = filter
    this.mailbox = mailbox
    if (start !== undefined && 'next' in start) this.#prelude = start
    else this.#begin(start)
  }

  #begin(start: ReplayCursor | EventEnvelope | undefined): void {
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

  async take(max = Number.POSITIVE_INFINITY): Promise<EventEnvelope[]> {
    while (this.#prelude !== undefined && !this.mailbox.closed) {
      const prelude = this.#prelude
      const batch = await prelude.next(this.filter, max)
      if (this.#prelude !== prelude) break
      if (batch === undefined) {
        this.#prelude = undefined
        this.#floor = prelude.floor
        const next = prelude.finish()
        // A buffer replay covers what was queued live meanwhile, up to now.
        if (next !== undefined && !('event_id' in next)) this.mailbox.clear()
        this.#begin(next)
      } else if (batch.length > 0) {
        // After a loss the client resyncs, which covers what was queued live meanwhile.
        if (batch[0]?.event_type === 'events_lost') this.mailbox.clear()
        return batch
      }
    }
    for (;;) {
      const batch = await this.#takeQueued(max)
      const floor = this.#floor
      if (floor === undefined || batch.length === 0) return batch
      // A change the log replay covered may reach this node's bus only now.
      const fresh = batch.filter((event) => {
        const position = parseChangeEventId(event.event_id)?.position
        return position === undefined || comparePositions(position, floor) > 0
      })
      if (fresh.some((event) => parseChangeEventId(event.event_id) !== undefined))
        this.#floor = undefined
      if (fresh.length > 0) return fresh
    }
  }

  #takeQueued(max: number): Promise<EventEnvelope[]> {
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
    this.#prelude?.close()
    this.#prelude = undefined
  }

  [Symbol.asyncIterator](): AsyncIterator<EventEnvelope> {
    return iterateBatches(
      () => this.take(),
      () => this.close(),
    )
  }
}
