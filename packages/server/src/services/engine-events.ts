import type { Database, DatabaseChange, EntryDifference } from '@svcdb/engine'
import type { EventBus } from '@svcdb/events'

/** Most entries one `entries_created`/`entries_deleted` event carries; more are split. */
export const MAX_ENTRIES_PER_EVENT = 1000

/** Publishes engine changes as events, in commit order. */
export interface EngineEventPublisher {
  /** Queues one change; its events follow every earlier change's. */
  publish(change: DatabaseChange): void
  /** Resolves once every queued change is published. */
  idle(): Promise<void>
}

/**
 * Publishes the engine's durable changes as the spec's events (DESIGN §5): entries created
 * and deleted, and versions (snapshots, forks) created. A whole-version move of HEAD or a
 * fork (restore, promote, import with promote) is published as the entries it changed,
 * found by comparing the two versions, so subscribers and webhooks see what changed.
 */
export function createEngineEventPublisher(
  db: Pick<Database, 'diffEntries'>,
  bus: EventBus,
  onError: (err: unknown) => void,
): EngineEventPublisher {
  let tail: Promise<void> = Promise.resolve()
  let queued = 0
  return {
    publish(change) {
      // Common changes publish at once; only after a version move do later ones wait.
      if (queued === 0 && change.type !== 'version_promoted') {
        publishChange(bus, change)
        return
      }
      queued++
      tail = tail
        .then(() =>
          change.type === 'version_promoted'
            ? publishVersionMove(db, bus, change)
            : publishChange(bus, change),
        )
        .catch(onError)
        .finally(() => queued--)
    },
    idle: () => tail,
  }
}

type Where = { fork?: string }

function publishChange(bus: EventBus, change: DatabaseChange): void {
  if (bus.closed) return
  const where: Where = change.fork === undefined ? {} : { fork: change.fork }
  switch (change.type) {
    case 'entries_created':
    case 'entries_deleted':
      publishEntries(
        bus,
        change.type,
        change.entries.map((e) => ({ path: e.path, entry_type: e.entryType })),
        change.version,
        where,
      )
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

async function publishVersionMove(
  db: Pick<Database, 'diffEntries'>,
  bus: EventBus,
  change: Extract<DatabaseChange, { type: 'version_promoted' }>,
): Promise<void> {
  const where: Where = change.fork === undefined ? {} : { fork: change.fork }
  const batches = {
    created: [] as EntryDifference[],
    deleted: [] as EntryDifference[],
  }
  const flush = (kind: 'created' | 'deleted') => {
    const batch = batches[kind]
    if (batch.length === 0 || bus.closed) return
    publishEntries(
      bus,
      kind === 'created' ? 'entries_created' : 'entries_deleted',
      batch.map((e) => ({ path: e.path, entry_type: e.entryType })),
      change.version,
      where,
    )
    batches[kind] = []
  }
  for await (const difference of db.diffEntries({ from: change.previous, to: change.version })) {
    // A modified entry is published as written again, as a write of it is.
    const kind = difference.change === 'deleted' ? 'deleted' : 'created'
    // A deletion must reach subscribers before a creation at the same path.
    if (kind === 'created') flush('deleted')
    batches[kind].push(difference)
    if (batches[kind].length >= MAX_ENTRIES_PER_EVENT) flush(kind)
  }
  flush('deleted')
  flush('created')
}

function publishEntries(
  bus: EventBus,
  type: 'entries_created' | 'entries_deleted',
  entries: { path: string; entry_type: 'file' | 'directory' | 'symlink' }[],
  version: string,
  where: Where,
): void {
  for (let i = 0; i < entries.length; i += MAX_ENTRIES_PER_EVENT) {
    bus.publish(type, {
      entries: entries.slice(i, i + MAX_ENTRIES_PER_EVENT),
      version,
      ...where,
    })
  }
}
