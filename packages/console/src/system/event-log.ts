/** The fields of an event envelope the log reads. */
export interface LoggedEvent {
  readonly event_id: string
  readonly event_type: string
  readonly timestamp: number
  readonly payload: unknown
}

/** Event types a subscriber can ask for, in the spec's order. */
export const EVENT_TYPE_CHOICES = [
  'entries_created',
  'entries_deleted',
  'versions_created',
  'permissions_changed',
  'indexes_changed',
  'heartbeat',
  'metrics',
] as const

/** How many events the log keeps by default. */
export const EVENT_LOG_LIMIT = 500

/** `events` with `event` first, cut to `limit`: the log is newest first and bounded. */
export function prependEvent<T>(events: readonly T[], event: T, limit = EVENT_LOG_LIMIT): T[] {
  const next = [event, ...events]
  if (next.length > limit) next.length = limit
  return next
}

/** A one-line account of an event's payload: the paths it names, or what it is about. */
export function eventSummary(event: LoggedEvent): string {
  const p = event.payload as Record<string, unknown> | null
  if (p === null || typeof p !== 'object') return ''
  if (Array.isArray(p.entries)) {
    const paths = p.entries
      .map((e: unknown) => (e as { path?: unknown }).path)
      .filter((path): path is string => typeof path === 'string')
    const shown = paths.slice(0, 3).join(', ')
    return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown
  }
  if (typeof p.path === 'string') return p.path
  if (typeof p.kind === 'string' && typeof p.name === 'string') return `${p.kind} ${p.name}`
  if (typeof p.reason === 'string') return `lost events (${p.reason})`
  if (event.event_type === 'metrics') return 'statistics'
  if (event.event_type === 'heartbeat') return 'alive'
  return ''
}
