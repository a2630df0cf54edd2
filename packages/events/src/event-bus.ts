import { comparePositions } from './change-log'
import type { ChangeLog, ChangePosition } from './change-log'
import { systemClock } from './clock'
import type { Clock } from './clock'
import { EventsError } from './errors'
import { createEventFilter } from './event-filter'
import type { EventFilter, EventFilterOptions } from './event-filter'
import { isEventType } from './event-types'
import type {
  BusEventType,
  EventEnvelope,
  EventMap,
  EventsLostReason,
  EventsLostPayload,
} from './event-types'
import {
  formatChangeEventId,
  isChangePosition,
  parseChangeEventId,
} from './internal/change-event-id'
import { createBootId, formatEventId, isBootId, parseEventId } from './internal/event-id'
import { eventWeight } from './internal/event-weight'
import { createMailbox } from './internal/mailbox'
import { createLogReplay } from './internal/log-replay'
import { createReplayBuffer } from './internal/replay-buffer'
import { BusSubscription } from './subscription'
import type { ReplayCursor, ReplayPrelude, Subscription, SubscriptionHost } from './subscription'

/** Options of {@link createEventBus}. */
export interface EventBusOptions {
  /** Events kept for `Last-Event-ID` replay; default 10,000. 0 disables replay. */
  replaySize?: number
  /**
   * Memory the replay buffer may hold, in bytes (estimated); default 16 MiB. The oldest
   * events go first past it, and a client resuming from one of them gets `events_lost`.
   */
  replayBytes?: number
  /** Default bound of each subscriber's queue; default 1,000. */
  queueSize?: number
  /** Source of envelope timestamps (and of pulses that use this bus); the system clock by default. */
  clock?: Clock
  /** This node's id, reported by heartbeats; default 0. */
  nodeId?: number
  /** The `<boot>` part of event ids (1–32 of `0-9a-z`); derived from the start time when absent. */
  bootId?: string
  /**
   * The database's change log: change events published with a `position` get the id
   * `<log id>.<seq>.<part>`, the same on every node sharing the database, and a
   * `Last-Event-ID` of that form resumes on any node (from the buffer, else from the log).
   * Absent, every event gets a `<boot>-<seq>` id.
   */
  changeLog?: ChangeLog
}

/** Options of {@link EventBus.publish}. */
export interface PublishOptions {
  /**
   * The event's place in the database's history (a database-change event), increasing from
   * one change event to the next. With the bus's `changeLog`, the event's id derives from it;
   * without, or when not after the previous one, it is ignored.
   */
  position?: ChangePosition
}

/** Options of {@link EventBus.subscribe}: the filters, a replay position and the queue bound. */
export interface SubscribeOptions extends EventFilterOptions {
  /**
   * The `Last-Event-ID` the client sent. Buffered events after it are delivered first; when
   * they are no longer buffered, or the id is unknown (malformed, from another boot, not issued
   * yet), one `events_lost` event comes first instead and the stream continues live.
   */
  lastEventId?: string | null | undefined
  /** Bound of this subscriber's queue; the bus default when absent. */
  queueSize?: number
}

/** The in-process event bus. */
export interface EventBus {
  /** The `<boot>` part of this bus's event ids. */
  readonly bootId: string
  readonly nodeId: number
  readonly clock: Clock
  /** Id of the newest published event, undefined before the first. */
  readonly lastEventId: string | undefined
  readonly subscriberCount: number
  readonly closed: boolean
  /**
   * Publishes an event to every matching subscriber and the replay buffer, and returns its
   * envelope. Never waits for subscribers. Payload paths must be absolute.
   */
  publish<T extends BusEventType>(
    type: T,
    payload: EventMap[T],
    options?: PublishOptions,
  ): EventEnvelope<T>
  /** Subscribes with filters, an authorization predicate and an optional replay position. */
  subscribe(options?: SubscribeOptions): Subscription
  /** Ends every subscription; later `publish` and `subscribe` calls throw `CLOSED`. */
  close(): void
}

const DEFAULT_REPLAY_SIZE = 10_000
const DEFAULT_REPLAY_BYTES = 16 * 1024 * 1024
const DEFAULT_QUEUE_SIZE = 1_000

const positiveInteger = (name: string, value: number) => {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`)
  return value
}

const assertAbsolute = (path: unknown) => {
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new RangeError(`event paths must be absolute, got ${JSON.stringify(path)}`)
}

/**
 * Creates the event bus: monotonic ids `<boot>-<seq>`, a bounded replay buffer serving
 * `Last-Event-ID`, and a bounded queue per subscriber so a stalled one never slows the others.
 *
 * @example
 * const bus = createEventBus({ nodeId: 1 })
 * const sub = bus.subscribe({ events: ['entries_created'], pathPrefix: '/docs/' })
 * bus.publish('entries_created', { entries: [{ path: '/docs/a.txt' }] })
 * const [event] = await sub.take()
 */
export function createEventBus(options: EventBusOptions = {}): EventBus {
  const clock = options.clock ?? systemClock
  const replaySize = options.replaySize ?? DEFAULT_REPLAY_SIZE
  const queueSize = positiveInteger('queueSize', options.queueSize ?? DEFAULT_QUEUE_SIZE)
  const nodeId = options.nodeId ?? 0
  if (!Number.isSafeInteger(nodeId) || nodeId < 0)
    throw new RangeError(`nodeId must be a non-negative integer, got ${nodeId}`)
  const bootId = options.bootId ?? createBootId(clock.now())
  if (!isBootId(bootId)) throw new RangeError(`bootId must be 1-32 of 0-9a-z, got '${bootId}'`)

  const changeLog = options.changeLog
  if (changeLog !== undefined && !isBootId(changeLog.id))
    throw new RangeError(`changeLog.id must be 1-32 of 0-9a-z, got '${changeLog.id}'`)
  const buffer = createReplayBuffer<Buffered>(
    replaySize,
    options.replayBytes ?? DEFAULT_REPLAY_BYTES,
  )
  // Change event id -> buffer seq, to resume from an id minted alike on another node.
  const changeIds = new Map<string, number>()
  let lastPosition: ChangePosition | undefined
  const subscribers = new Set<BusSubscription>()
  let seq = 0
  let lastPublished: string | undefined
  let closed = false

  const assertOpen = () => {
    if (closed) throw new EventsError('CLOSED', 'the event bus is closed')
  }

  // An events_lost notice takes a fresh id so that ids a client sees keep increasing; it never
  // enters the replay buffer.
  const lostEvent = (from: string, reason: EventsLostReason): EventEnvelope<'events_lost'> => {
    const payload: EventsLostPayload = { last_event_id: from, reason }
    return {
      event_id: formatEventId(bootId, ++seq),
      event_type: 'events_lost',
      timestamp: clock.now(),
      payload,
    }
  }

  const readReplay = (replay: ReplayCursor, filter: EventFilter, max: number): EventEnvelope[] => {
    if (buffer.evictedThrough > replay.cursor) {
      // Evicted while this subscriber replayed: it must resync, which also covers everything
      // queued live meanwhile.
      replay.cursor = replay.end
      return [lostEvent(replay.from, 'expired')]
    }
    const out: EventEnvelope[] = []
    let index = buffer.indexAfter(replay.cursor)
    while (out.length < max) {
      const record = buffer.at(index++)
      if (record === undefined || record.seq > replay.end) {
        replay.cursor = replay.end
        break
      }
      replay.cursor = record.seq
      if (coveredByLog(replay, record.seq, record.item.position)) continue
      const event = filter(record.item.envelope)
      if (event !== undefined) out.push(event)
    }
    return out
  }

  const startReplay = (lastEventId: string): ReplayCursor | EventEnvelope | ReplayPrelude => {
    const change = parseChangeEventId(lastEventId)
    if (change !== undefined) return startChangeReplay(lastEventId, change.log, change.position)
    const parsed = parseEventId(lastEventId)
    if (parsed === undefined || parsed.boot !== bootId || parsed.seq > seq)
      return lostEvent(lastEventId, 'unknown')
    if (parsed.seq < buffer.evictedThrough) return lostEvent(lastEventId, 'expired')
    return { cursor: parsed.seq, end: seq, from: lastEventId }
  }

  // A change event id: from the buffer when it holds it, else from the change log.
  const startChangeReplay = (
    from: string,
    log: string,
    after: ChangePosition,
  ): ReplayCursor | EventEnvelope | ReplayPrelude => {
    if (changeLog === undefined || log !== changeLog.id) return lostEvent(from, 'unknown')
    const buffered = changeIds.get(from)
    if (buffered !== undefined && buffered > buffer.evictedThrough)
      return { cursor: buffered, end: seq, from }
    const subscribedAt = seq
    return createLogReplay({
      log: changeLog,
      after,
      envelope: (event) =>
        ({
          event_id: formatChangeEventId(changeLog.id, event.position),
          event_type: event.type,
          timestamp: clock.now(),
          payload: event.payload,
        }) as EventEnvelope,
      lost: () => lostEvent(from, 'expired'),
      // Then the buffer: change events after the log's last, other events after subscribing.
      finish: (floor) => {
        if (buffer.evictedThrough > subscribedAt) return lostEvent(from, 'expired')
        const start = { cursor: buffer.evictedThrough, end: seq, from, localAfter: subscribedAt }
        return floor === undefined ? start : { ...start, floor }
      },
    })
  }

  const host: SubscriptionHost = {
    readReplay,
    detach: (subscription) => subscribers.delete(subscription),
  }

  const subscribe = (subscribeOptions: SubscribeOptions = {}): Subscription => {
    assertOpen()
    const mailbox = createMailbox<EventEnvelope>(
      positiveInteger('queueSize', subscribeOptions.queueSize ?? queueSize),
    )
    const { lastEventId } = subscribeOptions
    const start =
      lastEventId === undefined || lastEventId === null || lastEventId === ''
        ? undefined
        : startReplay(lastEventId)
    const subscription = new BusSubscription(
      host,
      createEventFilter(subscribeOptions),
      mailbox,
      start,
    )
    subscribers.add(subscription)
    return subscription
  }

  // Positions must increase (ids stay unique); an out-of-order one is ignored.
  const changeEventId = (position: ChangePosition | undefined): string | undefined => {
    if (changeLog === undefined || position === undefined || !isChangePosition(position))
      return undefined
    if (lastPosition !== undefined && comparePositions(position, lastPosition) <= 0)
      return undefined
    lastPosition = { seq: position.seq, part: position.part }
    return formatChangeEventId(changeLog.id, lastPosition)
  }

  const forgetEvicted = () => {
    if (changeIds.size <= 2 * buffer.size + 64) return
    for (const [id, at] of changeIds) {
      if (at > buffer.evictedThrough) break
      changeIds.delete(id)
    }
  }

  const publish = <T extends BusEventType>(
    type: T,
    payload: EventMap[T],
    publishOptions: PublishOptions = {},
  ): EventEnvelope<T> => {
    assertOpen()
    if (!isEventType(type) || (type as string) === 'events_lost')
      throw new TypeError(`cannot publish event type '${String(type)}'`)
    if (type === 'entries_created' || type === 'entries_deleted') {
      for (const entry of (payload as EventMap['entries_created']).entries)
        assertAbsolute(entry.path)
    } else if (type === 'permissions_changed' || type === 'indexes_changed') {
      assertAbsolute((payload as EventMap['indexes_changed']).path)
    }
    const id = ++seq
    const changeId = changeEventId(publishOptions.position)
    const envelope = {
      event_id: changeId ?? formatEventId(bootId, id),
      event_type: type,
      timestamp: clock.now(),
      payload,
    } as EventEnvelope<T>
    lastPublished = envelope.event_id
    const item: Buffered =
      changeId === undefined ? { envelope } : { envelope, position: lastPosition }
    buffer.push({ seq: id, item }, eventWeight(envelope))
    if (changeId !== undefined && replaySize > 0) {
      changeIds.set(changeId, id)
      forgetEvicted()
    }
    for (const subscriber of subscribers) {
      const event = subscriber.filter(envelope)
      if (event !== undefined) subscriber.mailbox.push(event)
    }
    return envelope
  }

  return {
    bootId,
    nodeId,
    clock,
    get lastEventId() {
      return lastPublished
    },
    get subscriberCount() {
      return subscribers.size
    },
    get closed() {
      return closed
    },
    publish,
    subscribe,
    close() {
      if (closed) return
      closed = true
      for (const subscriber of subscribers) subscriber.mailbox.close()
      subscribers.clear()
    },
  }
}

/** A buffered event, with its change position when it is a change event. */
interface Buffered {
  envelope: EventEnvelope
  position?: ChangePosition | undefined
}

/** True when a buffer replay that follows a change log replay must skip this record. */
function coveredByLog(
  replay: ReplayCursor,
  seq: number,
  position: ChangePosition | undefined,
): boolean {
  if (position === undefined) return replay.localAfter !== undefined && seq <= replay.localAfter
  return replay.floor !== undefined && comparePositions(position, replay.floor) <= 0
}
