import type { DatabaseChange } from '@svcdb/engine'
import type { EventBus } from '@svcdb/events'

/**
 * Publishes the engine's durable changes as the spec's events (DESIGN §5): entries created
 * and deleted, and versions (snapshots, forks) created. Whole-version moves of HEAD
 * (restore, promote, import) have no event type in the spec and are not published.
 */
export function publishEngineChange(bus: EventBus, change: DatabaseChange): void {
  if (bus.closed) return
  const where = change.fork === undefined ? {} : { fork: change.fork }
  switch (change.type) {
    case 'entries_created':
    case 'entries_deleted':
      bus.publish(change.type, {
        entries: change.entries.map((e) => ({ path: e.path, entry_type: e.entryType })),
        version: change.version,
        ...where,
      })
      return
    case 'version_created':
      bus.publish('versions_created', {
        kind: change.kind,
        name: change.name,
        version: change.version,
        created_at: change.at,
      })
      return
    case 'version_promoted':
      return
  }
}
