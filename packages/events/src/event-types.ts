import type { MetricsPayload } from './metrics-payload'

/** Every event type of the stream, in the spec's order, plus `events_lost` (DESIGN §5). */
export const EVENT_TYPES = [
  'entries_created',
  'entries_deleted',
  'versions_created',
  'permissions_changed',
  'indexes_changed',
  'heartbeat',
  'metrics',
  'events_lost',
] as const

/** The name of an event type, e.g. `entries_created`. */
export type EventType = (typeof EVENT_TYPES)[number]

/** Event types that are published on the bus; `events_lost` is only ever made for one subscriber. */
export type BusEventType = Exclude<EventType, 'events_lost'>

/** Returns true when `value` names an event type. */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value)
}

/** Kinds of entries an event can name. */
export type EntryKind = 'file' | 'directory' | 'symlink'

/** One entry of a batch event. `path` is absolute (`/a/b.txt`); the rest is informative. */
export interface EventEntry {
  readonly path: string
  readonly entry_type?: EntryKind
  /** Size in bytes (files). */
  readonly size?: number
  /** Content hash (files). */
  readonly hash?: string
}

/** Payload of `entries_created` and `entries_deleted`: a batch of entries. */
export interface EntriesPayload {
  readonly entries: readonly EventEntry[]
  /** Version hash (root) after the change. */
  readonly version?: string
  /** The fork written to; absent for HEAD. */
  readonly fork?: string
}

/** Payload of `versions_created`: the new snapshot's or fork's metadata. */
export interface VersionsCreatedPayload {
  readonly kind: 'snapshot' | 'fork'
  readonly name: string
  /** Version hash (root) it names. */
  readonly version: string
  /** Unix milliseconds. */
  readonly created_at: number
}

/** Payload of single-path events (`permissions_changed`, `indexes_changed`). */
export interface PathPayload {
  /** Absolute path. */
  readonly path: string
}

/** Payload of `heartbeat`: when it was scheduled and built, and by which node. No statistics. */
export interface HeartbeatPayload {
  /** Unix ms the heartbeat was scheduled for. */
  readonly intent_time: number
  /** Unix ms the heartbeat was built. */
  readonly construct_time: number
  readonly node_id: number
}

/** Why a subscriber was told it lost events. */
export type EventsLostReason =
  /** The `Last-Event-ID` is older than the replay buffer. */
  | 'expired'
  /** The `Last-Event-ID` is malformed, from another boot of the server, or not issued yet. */
  | 'unknown'

/** Payload of `events_lost`: the events after `last_event_id` cannot be replayed; resynchronise. */
export interface EventsLostPayload {
  /** The `Last-Event-ID` the subscriber presented. */
  readonly last_event_id: string
  readonly reason: EventsLostReason
}

/** Payload type of every event type. */
export interface EventMap {
  entries_created: EntriesPayload
  entries_deleted: EntriesPayload
  versions_created: VersionsCreatedPayload
  permissions_changed: PathPayload
  indexes_changed: PathPayload
  heartbeat: HeartbeatPayload
  metrics: MetricsPayload
  events_lost: EventsLostPayload
}

/**
 * The JSON envelope of every event: `{event_id, event_type, timestamp, payload}`. Without a
 * type argument it is the union over all event types, discriminated by `event_type`.
 */
export type EventEnvelope<T extends EventType = EventType> = T extends EventType
  ? {
      /** `<boot>-<seq>`, unique and increasing; also the SSE `id`. */
      readonly event_id: string
      readonly event_type: T
      /** Unix milliseconds. */
      readonly timestamp: number
      readonly payload: EventMap[T]
    }
  : never
