import type { Database, DatabaseChange, EntryDifference } from '@svcdb/engine'
import type {
  BusEventType,
  ChangeEvent,
  ChangeLog,
  ChangePosition,
  EventBus,
  EventMap,
} from '@svcdb/events'
import { comparePositions } from '@svcdb/events'

/** Most entries one `entries_created`/`entries_deleted` event carries; more are split. */
export const MAX_ENTRIES_PER_EVENT = 1000

/** A change as the database reports it: with its version log position (`seq`). */
export type PositionedChange = DatabaseChange & { seq: number }

/** Publishes engine changes as events, in commit order. */
export interface EngineEventPublisher {
  /** Queues one change; its events follow every earlier change's. */
  publish(change: PositionedChange): void
  /** Resolves once every queued change is published. */
  idle(): Promise<void>
}

/** What the change log of the events needs from the database. */
export interface ChangeLogSource extends Pick<Database, 'diffEntries'> {
  /** The database's id, the same on every node sharing it. */
  readonly changeLogId: string
  /** The changes after a version log position, in commit order (`NOT_FOUND` once trimmed). */
  replayChanges(options: { after: number; signal?: AbortSignal }): AsyncIterable<PositionedChange>
}

/** One event of a change, before the bus gives it an id. */
interface Draft {
  type: BusEventType
  payload: EventMap[BusEventType]
}

/**
 * Numbers the events of each version log position: a change can split into several events
 * and a commit can report several changes at one position. Every node numbers alike, so the
 * same change gets the same event ids everywhere.
 */
function createPartCounter(): (seq: number) => ChangePosition {
  let current = -1
  let part = 0
  return (seq) => {
    if (seq !== current) {
      current = seq
      part = 0
    }
    return { seq, part: part++ }
  }
}

/**
 * Publishes the engine's durable changes as the spec's events (DESIGN §5): entries created
 * and deleted, and versions (snapshots, forks) created. A whole-version move of HEAD or a
 * fork (restore, promote, import with promote) is published as the entries it changed,
 * found by comparing the two versions, so subscribers and webhooks see what changed. Each
 * event carries its change's position, from which a bus with a change log derives its id.
 */
export function createEngineEventPublisher(
  db: Pick<Database, 'diffEntries'>,
  bus: EventBus,
  onError: (err: unknown) => void,
): EngineEventPublisher {
  let tail: Promise<void> = Promise.resolve()
  let queued = 0
  const positionOf = createPartCounter()
  const publishAll = (change: PositionedChange, drafts: Iterable<Draft>) => {
    for (const draft of drafts) {
      if (bus.closed) return
      bus.publish(draft.type, draft.payload, { position: positionOf(change.seq) })
    }
  }
  return {
    publish(change) {
      // Common changes publish at once; only after a version move do later ones wait.
      if (queued === 0 && change.type !== 'version_promoted') {
        publishAll(change, eventsOfChange(change))
        return
      }
      queued++
      tail = tail
        .then(async () => {
          if (change.type !== 'version_promoted') publishAll(change, eventsOfChange(change))
          else for await (const drafts of eventsOfMove(db, change)) publishAll(change, drafts)
        })
        .catch(onError)
        .finally(() => queued--)
    },
    idle: () => tail,
  }
}

/**
 * The change log of a bus (`createEventBus({ changeLog })`): the database's id, and its
 * changes after a position replayed from the version log as the same events, with the same
 * positions, as {@link createEngineEventPublisher} publishes them on any node.
 */
export function createEngineChangeLog(db: ChangeLogSource): ChangeLog {
  return {
    id: db.changeLogId,
    async *replay(after, signal) {
      const positionOf = createPartCounter()
      // From the change at `after.seq` itself: its later parts may follow `after`.
      const changes = db.replayChanges({ after: Math.max(0, after.seq - 1), signal })
      for await (const change of changes) {
        const batches =
          change.type === 'version_promoted' ? eventsOfMove(db, change) : [eventsOfChange(change)]
        for await (const drafts of batches)
          for (const draft of drafts) {
            const position = positionOf(change.seq)
            if (comparePositions(position, after) > 0) yield { ...draft, position } as ChangeEvent
          }
      }
    },
  }
}

type Where = { fork?: string }

/** The events of a change other than a version move. */
function eventsOfChange(change: DatabaseChange): Draft[] {
  const where: Where = change.fork === undefined ? {} : { fork: change.fork }
  switch (change.type) {
    case 'entries_created':
    case 'entries_deleted':
      return entriesEvents(
        change.type,
        change.entries.map((e) => ({ path: e.path, entry_type: e.entryType })),
        change.version,
        where,
      )
    case 'version_created':
      return [
        {
          type: 'versions_created',
          payload: {
            kind: change.kind,
            name: change.name,
            version: change.version,
            created_at: change.at,
          },
        },
      ]
    case 'version_promoted':
      return []
  }
}

/** The events of a version move, batch by batch: the entries it changed. */
async function* eventsOfMove(
  db: Pick<Database, 'diffEntries'>,
  change: Extract<DatabaseChange, { type: 'version_promoted' }>,
): AsyncGenerator<Draft[]> {
  const where: Where = change.fork === undefined ? {} : { fork: change.fork }
  const batches = {
    created: [] as EntryDifference[],
    deleted: [] as EntryDifference[],
  }
  const flush = (kind: 'created' | 'deleted'): Draft[] => {
    const batch = batches[kind]
    batches[kind] = []
    return entriesEvents(
      kind === 'created' ? 'entries_created' : 'entries_deleted',
      batch.map((e) => ({ path: e.path, entry_type: e.entryType })),
      change.version,
      where,
    )
  }
  for await (const difference of db.diffEntries({ from: change.previous, to: change.version })) {
    // A modified entry is published as written again, as a write of it is.
    const kind = difference.change === 'deleted' ? 'deleted' : 'created'
    // A deletion must reach subscribers before a creation at the same path.
    if (kind === 'created' && batches.deleted.length > 0) yield flush('deleted')
    batches[kind].push(difference)
    if (batches[kind].length >= MAX_ENTRIES_PER_EVENT) yield flush(kind)
  }
  yield [...flush('deleted'), ...flush('created')]
}

function entriesEvents(
  type: 'entries_created' | 'entries_deleted',
  entries: { path: string; entry_type: 'file' | 'directory' | 'symlink' }[],
  version: string,
  where: Where,
): Draft[] {
  const drafts: Draft[] = []
  for (let i = 0; i < entries.length; i += MAX_ENTRIES_PER_EVENT) {
    drafts.push({
      type,
      payload: { entries: entries.slice(i, i + MAX_ENTRIES_PER_EVENT), version, ...where },
    })
  }
  return drafts
}
