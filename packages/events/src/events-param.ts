import { EventsError } from './errors'
import { EVENT_TYPES, isEventType } from './event-types'
import type { EventType } from './event-types'

/**
 * Parses the `events` query parameter of the event stream: a comma-separated list of event
 * types. Blank items are ignored, duplicates collapse; absent or blank means every type
 * (undefined). Throws `INVALID_EVENT_TYPE` naming the first unknown type.
 *
 * @example
 * parseEventsParam('entries_created, entries_deleted') // ['entries_created', 'entries_deleted']
 * parseEventsParam(null) // undefined: all types
 */
export function parseEventsParam(value: string | null | undefined): EventType[] | undefined {
  if (value === null || value === undefined) return undefined
  const types: EventType[] = []
  for (const raw of value.split(',')) {
    const name = raw.trim()
    if (name === '') continue
    if (!isEventType(name))
      throw new EventsError(
        'INVALID_EVENT_TYPE',
        `unknown event type '${name.slice(0, 64)}'; expected one of ${EVENT_TYPES.join(', ')}`,
      )
    if (!types.includes(name)) types.push(name)
  }
  return types.length === 0 ? undefined : types
}
