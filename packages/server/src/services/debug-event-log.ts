import type { EventBus, EventEnvelope } from '@svcdb/events'
import type { Logger } from '../logger'

/** At most this many paths of one event are named in its debug line. */
const MAX_PATHS = 5

/**
 * At `debug`, logs every event the bus publishes (writes, deletes, version moves, tasks,
 * webhooks deliveries' outcomes): one line each with its id, type and what it names.
 * Returns the function that stops it; does nothing at quieter levels, so they pay nothing.
 */
export function startDebugEventLog(bus: EventBus, logger: Logger): () => void {
  if (logger.isLevelEnabled?.('debug') !== true) return () => undefined
  const subscription = bus.subscribe()
  void (async () => {
    for await (const event of subscription) {
      // Metrics and heartbeats tick on their own: they would drown everything else.
      if (event.event_type === 'metrics' || event.event_type === 'heartbeat') continue
      logger.debug(`event ${event.event_type}`, describe(event))
    }
  })()
  return () => subscription.close()
}

function describe(event: EventEnvelope): Record<string, unknown> {
  const payload = event.payload as unknown as Record<string, unknown>
  const fields: Record<string, unknown> = { eventId: event.event_id }
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'entries' && Array.isArray(value)) {
      const entries = value as { path?: unknown }[]
      fields.entries = entries.length
      fields.paths = entries.slice(0, MAX_PATHS).map((e) => e.path)
    } else if (value === null || typeof value !== 'object') fields[key] = value
  }
  return fields
}
