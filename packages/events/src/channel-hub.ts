import { systemClock } from './clock'
import type { Clock } from './clock'
import { EventsError } from './errors'
import { iterateBatches } from './internal/batch-iterator'
import { createMailbox } from './internal/mailbox'
import type { Mailbox } from './internal/mailbox'

/** One application-level message sent to a channel. */
export interface ChannelMessage<T> {
  /** Increasing per hub; usable as an SSE `id`. */
  readonly id: string
  readonly channel: string
  readonly data: T
  /** Unix milliseconds. */
  readonly timestamp: number
}

/** A subscriber of one channel, with the same bounded-queue behaviour as a bus subscription. */
export interface ChannelSubscription<T> extends AsyncIterable<ChannelMessage<T>> {
  readonly channel: string
  /** Resolves with queued messages as soon as one is available, or `[]` once closed. */
  take(max?: number): Promise<ChannelMessage<T>[]>
  close(): void
  readonly closed: boolean
  readonly pending: number
  /** Messages dropped because the queue was full. */
  readonly dropped: number
}

/** What {@link ChannelHub.publish} did. */
export interface ChannelDelivery<T> {
  readonly message: ChannelMessage<T>
  /** Subscribers the message was queued for. */
  readonly delivered: number
}

/** Named channels, each with its own subscribers; messages go only to their channel. */
export interface ChannelHub<T> {
  /** Sends `data` to every current subscriber of `channel` (none is fine). */
  publish(channel: string, data: T): ChannelDelivery<T>
  subscribe(channel: string, options?: { queueSize?: number }): ChannelSubscription<T>
  /** Subscribers of `channel`, or of all channels when absent. */
  subscriberCount(channel?: string): number
  /** Names of channels that have subscribers. */
  channels(): string[]
  /** Ends every subscription; later calls throw `CLOSED`. */
  close(): void
}

/** Options of {@link createChannelHub}. */
export interface ChannelHubOptions {
  /** Bound of each subscriber's queue; default 1,000. */
  queueSize?: number
  /** Source of message timestamps; the system clock by default. */
  clock?: Clock
}

const MAX_CHANNEL_LENGTH = 256
const DEFAULT_QUEUE_SIZE = 1_000

const validChannel = (channel: unknown): string => {
  if (
    typeof channel !== 'string' ||
    channel.length === 0 ||
    channel.length > MAX_CHANNEL_LENGTH ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(channel)
  )
    throw new EventsError(
      'INVALID_CHANNEL',
      `a channel name must be 1-${MAX_CHANNEL_LENGTH} characters without control characters`,
    )
  return channel
}

/**
 * Creates a hub of named channels for application-level streams (the example application's
 * channel and session streams). Channels exist while they have subscribers; a channel nobody
 * listens to costs nothing.
 *
 * @example
 * const hub = createChannelHub<{ text: string }>()
 * const sub = hub.subscribe('lobby')
 * hub.publish('lobby', { text: 'hello' })
 * const [message] = await sub.take() // { id: '1', channel: 'lobby', data: { text: 'hello' }, … }
 */
export function createChannelHub<T = unknown>(options: ChannelHubOptions = {}): ChannelHub<T> {
  const clock = options.clock ?? systemClock
  const queueSize = options.queueSize ?? DEFAULT_QUEUE_SIZE
  if (!Number.isSafeInteger(queueSize) || queueSize < 1)
    throw new RangeError(`queueSize must be a positive integer, got ${queueSize}`)
  const channels = new Map<string, Set<Mailbox<ChannelMessage<T>>>>()
  let seq = 0
  let total = 0
  let closed = false
  const assertOpen = () => {
    if (closed) throw new EventsError('CLOSED', 'the channel hub is closed')
  }

  return {
    publish(channel, data) {
      assertOpen()
      const message: ChannelMessage<T> = {
        id: String(++seq),
        channel: validChannel(channel),
        data,
        timestamp: clock.now(),
      }
      const members = channels.get(channel)
      if (members !== undefined) for (const mailbox of members) mailbox.push(message)
      return { message, delivered: members?.size ?? 0 }
    },
    subscribe(channel, subscribeOptions = {}) {
      assertOpen()
      validChannel(channel)
      const mailbox = createMailbox<ChannelMessage<T>>(subscribeOptions.queueSize ?? queueSize)
      let members = channels.get(channel)
      if (members === undefined) channels.set(channel, (members = new Set()))
      members.add(mailbox)
      total++
      const close = () => {
        if (mailbox.closed) return
        mailbox.close()
        total--
        const current = channels.get(channel)
        current?.delete(mailbox)
        if (current?.size === 0) channels.delete(channel)
      }
      const take = (max?: number) => mailbox.take(max)
      return {
        channel,
        take,
        close,
        get closed() {
          return mailbox.closed
        },
        get pending() {
          return mailbox.pending
        },
        get dropped() {
          return mailbox.dropped
        },
        [Symbol.asyncIterator]: () => iterateBatches(take, close),
      }
    },
    subscriberCount(channel) {
      return channel === undefined ? total : (channels.get(channel)?.size ?? 0)
    },
    channels: () => [...channels.keys()],
    close() {
      if (closed) return
      closed = true
      for (const members of channels.values()) for (const mailbox of members) mailbox.close()
      channels.clear()
      total = 0
    },
  }
}
