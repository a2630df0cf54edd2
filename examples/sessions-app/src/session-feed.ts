import { createChannelHub } from '@svcdb/events'
import type { ChannelMessage, SseMessage, SseSource } from '@svcdb/events'
import * as v from 'valibot'
import { sessionEventSchema } from './session-event'
import type { SessionEvent } from './session-event'

/** Options of {@link createSessionFeed}. */
export interface SessionFeedOptions {
  /** Events kept for `Last-Event-ID` resume; default 1,000. */
  replaySize?: number
  /** Bound of each subscriber's queue; a slower one loses the oldest events. Default 1,000. */
  queueSize?: number
}

/**
 * The session stream of one app instance: `created` and `dispatched` events, each with an id
 * `<boot>-<seq>` so a reconnecting client resumes with `Last-Event-ID` while the events it
 * missed are still buffered.
 */
export interface SessionFeed {
  /** Sends an event to every subscriber and the replay buffer; returns its SSE id. */
  publish(event: SessionEvent): string
  /**
   * A source for `createSseStream`: the buffered events after `lastEventId` first (when it is
   * an id of this feed), then live ones. An id of another process gives live events only, and
   * events evicted from the buffer are skipped; consumers that must see every session resync
   * by fetching them.
   */
  subscribe(lastEventId?: string | null): SseSource<ChannelMessage<SessionEvent>>
  /** Turns an event into its SSE message: `id` and the JSON envelope as `data`, no `event:`. */
  readonly encode: (message: ChannelMessage<SessionEvent>) => SseMessage
  readonly subscriberCount: number
  /** Ends every subscription. */
  close(): void
}

// The feed is one channel of a hub: the hub brings bounded queues and message ids.
const CHANNEL = 'sessions'
const DEFAULT_REPLAY_SIZE = 1_000

/** Creates the session stream of one app instance. */
export function createSessionFeed(options: SessionFeedOptions = {}): SessionFeed {
  const replaySize = options.replaySize ?? DEFAULT_REPLAY_SIZE
  if (!Number.isSafeInteger(replaySize) || replaySize < 0)
    throw new RangeError(`replaySize must be a non-negative integer, got ${replaySize}`)
  const hub = createChannelHub<SessionEvent>(
    options.queueSize === undefined ? {} : { queueSize: options.queueSize },
  )
  // Ids of an earlier process must not be taken for ours: they carry another boot.
  const boot = globalThis.crypto.randomUUID().slice(0, 8)
  const buffer: ChannelMessage<SessionEvent>[] = []
  const sseId = (message: ChannelMessage<SessionEvent>) => `${boot}-${message.id}`

  const replayAfter = (lastEventId: string | null | undefined) => {
    const match = /^([0-9a-f]{8})-([0-9]+)$/.exec(lastEventId ?? '')
    if (match === null || match[1] !== boot) return []
    const seq = Number(match[2])
    // Events already evicted are lost to this client; it still gets the newer ones.
    return buffer.filter((message) => Number(message.id) > seq)
  }

  return {
    publish(event) {
      const { message } = hub.publish(CHANNEL, v.parse(sessionEventSchema, event))
      if (replaySize > 0) {
        buffer.push(message)
        if (buffer.length > replaySize) buffer.shift()
      }
      return sseId(message)
    },
    subscribe(lastEventId) {
      // Subscribed before the buffer is read, in the same tick: every event is either
      // replayed or live, never both and never neither.
      const live = hub.subscribe(CHANNEL)
      let backlog = replayAfter(lastEventId)
      return {
        async take(max = Number.POSITIVE_INFINITY) {
          if (backlog.length === 0 || live.closed) return live.take(max)
          const batch = backlog.slice(0, max)
          backlog = backlog.slice(batch.length)
          return batch
        },
        close: () => live.close(),
      }
    },
    encode: (message) => ({ id: sseId(message), data: JSON.stringify(message.data) }),
    get subscriberCount() {
      return hub.subscriberCount(CHANNEL)
    },
    close: () => hub.close(),
  }
}
