import type { EventEntry, EventEnvelope, EventType } from './event-types'

/** What a subscriber (or a webhook) wants to see, and may see. */
export interface EventFilterOptions {
  /** Event types to keep; every type when absent. */
  readonly events?: readonly EventType[] | undefined
  /**
   * Keep an event only if a path in its payload starts with this string: any
   * `payload.entries[].path` of batch events, `payload.path` of single-path events. Events
   * without paths are dropped. An empty string or absence means no path filter.
   */
  readonly pathPrefix?: string | undefined
  /**
   * Authorization: whether the subscriber may read `path` (`r`). Batch events are cut down to
   * readable entries and dropped when none remain; single-path events are dropped when their
   * path is unreadable; events without paths are not affected. A throwing predicate denies.
   * Called synchronously for every event, so it must be cheap.
   */
  readonly canRead?: ((path: string) => boolean) | undefined
  /**
   * Authorization: whether the subscriber may see the whole database's inventory. When it
   * answers false, `versions_created` (every snapshot and fork name) and `metrics` (the
   * database's counts and sizes) are dropped; absence keeps them. A throwing predicate
   * denies. Called synchronously for those events, so it must be cheap.
   */
  readonly canSeeInventory?: (() => boolean) | undefined
}

/** Keeps, trims or drops one event: the event to deliver, or undefined to drop it. */
export type EventFilter = (envelope: EventEnvelope) => EventEnvelope | undefined

/**
 * Compiles the stream filters of the spec (`events`, `path_prefix`) and the per-subscriber
 * authorization predicates into one function. Authorization runs first, so the path filter
 * only ever sees entries the subscriber may read.
 *
 * @example
 * const filter = createEventFilter({ events: ['entries_created'], pathPrefix: '/docs/' })
 * filter(envelope) // the envelope, a copy with fewer entries, or undefined
 */
export function createEventFilter(options: EventFilterOptions = {}): EventFilter {
  const types = options.events === undefined ? undefined : new Set<EventType>(options.events)
  const prefix = options.pathPrefix === '' ? undefined : options.pathPrefix
  const canRead = options.canRead
  const readable =
    canRead === undefined
      ? undefined
      : (path: string) => {
          try {
            return canRead(path) === true
          } catch {
            return false
          }
        }

  const inventory = options.canSeeInventory
  const seesInventory =
    inventory === undefined
      ? () => true
      : () => {
          try {
            return inventory() === true
          } catch {
            return false
          }
        }

  return (envelope) => {
    if (types !== undefined && !types.has(envelope.event_type)) return undefined
    switch (envelope.event_type) {
      case 'entries_created':
      case 'entries_deleted': {
        let entries: readonly EventEntry[] = envelope.payload.entries
        if (readable !== undefined) {
          const visible = entries.filter((entry) => readable(entry.path))
          if (visible.length === 0) return undefined
          if (visible.length < entries.length) {
            entries = visible
            envelope = { ...envelope, payload: { ...envelope.payload, entries } }
          }
        }
        if (prefix !== undefined && !entries.some((entry) => entry.path.startsWith(prefix)))
          return undefined
        return envelope
      }
      case 'permissions_changed':
      case 'indexes_changed': {
        const path = envelope.payload.path
        if (readable !== undefined && !readable(path)) return undefined
        if (prefix !== undefined && !path.startsWith(prefix)) return undefined
        return envelope
      }
      case 'versions_created':
      case 'metrics':
        if (!seesInventory()) return undefined
        return prefix === undefined ? envelope : undefined
      default:
        return prefix === undefined ? envelope : undefined
    }
  }
}
