import { changeRecordKey, parseChangeRecordKey, parseSequenceKey } from '../meta/keys'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { DatabaseChange, SequencedChange } from './database-change'
import { sequenceChanges } from './sequence-changes'

/**
 * Most entries one version log sequence's record holds (a change without entries counts
 * one). Past it the record says only how many there were, and the sequence is reported as
 * the diff of its move, as for a commit without a record.
 */
export const CHANGE_RECORD_LIMIT = 10_000

/** A committed group's changes, as recorded in its batch (one record per move). */
export interface RecordedGroup {
  /**
   * The group's changes, stamped, in sequence order (the group's order within one): as a
   * reader of the records gets them, and as the group reported them for the sequences in
   * `diffed`.
   */
  changes: SequencedChange[]
  /** Sequences whose changes were too many to record: other nodes diff their moves. */
  diffed: number[]
  /** The puts of the records, for the group's batch. */
  ops: MetaOp[]
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * Records a group's changes in its batch: one record per move (sequences `first`,
 * `first + 1`, ...), holding the changes stamped with that sequence (an empty list when
 * there are none), or a marker past `limit` entries. A group without moves records nothing.
 * The changes returned are the records read back, so that the committing node reports
 * exactly what every other node reads.
 */
export function recordChanges(
  changes: readonly DatabaseChange[],
  moves: readonly unknown[],
  first: number,
  limit = CHANGE_RECORD_LIMIT,
): RecordedGroup {
  // Stable: a group's changes keep their order within one sequence.
  const all = sequenceChanges(changes.map(plainChange), moves as { ref: string }[], first).sort(
    (x, y) => x.seq - y.seq,
  )
  const group: RecordedGroup = { changes: [], diffed: [], ops: [] }
  let next = 0
  for (let seq = first; seq < first + moves.length; seq++) {
    const own: SequencedChange[] = []
    let entries = 0
    for (; next < all.length && (all[next] as SequencedChange).seq === seq; next++) {
      const change = all[next] as SequencedChange
      own.push(change)
      entries += 'entries' in change ? Math.max(change.entries.length, 1) : 1
    }
    const json = JSON.stringify(entries > limit ? { entries } : { changes: own.map(unstamped) })
    group.ops.push({
      type: 'put',
      space: 'meta',
      key: changeRecordKey(seq),
      value: encoder.encode(json),
    })
    const read = entries > limit ? undefined : parseRecord(json)
    if (read === undefined) group.diffed.push(seq)
    for (const change of read ?? own) group.changes.push({ ...change, seq })
  }
  // No moves: stamped with the position the group follows, recorded nowhere.
  for (; next < all.length; next++) group.changes.push(all[next] as SequencedChange)
  return group
}

function unstamped(change: SequencedChange): DatabaseChange {
  const { seq: _seq, ...rest } = change
  return rest as DatabaseChange
}

/**
 * The changes a stored record holds, or `undefined` when the sequence must be reported as
 * the diff of its move (the record says its changes were too many, or it is unreadable).
 */
export function parseChangeRecord(value: Uint8Array): DatabaseChange[] | undefined {
  return parseRecord(decoder.decode(value))
}

function parseRecord(json: string): DatabaseChange[] | undefined {
  try {
    const stored = JSON.parse(json) as { changes?: unknown }
    if (!Array.isArray(stored.changes)) return undefined
    const changes = stored.changes as DatabaseChange[]
    if (!changes.every(isChange)) return undefined
    return changes.map(plainChange)
  } catch {
    return undefined
  }
}

const TYPES = new Set(['entries_created', 'entries_deleted', 'version_created', 'version_promoted'])

function isChange(value: unknown): value is DatabaseChange {
  const change = value as Partial<DatabaseChange> | null
  return (
    typeof change === 'object' &&
    change !== null &&
    TYPES.has(change.type as string) &&
    typeof change.version === 'string' &&
    typeof change.at === 'number' &&
    (!('entries' in change) || Array.isArray(change.entries))
  )
}

/**
 * A change with only the fields a `DatabaseChange` has (`fork` present, `undefined` for
 * HEAD), so a change and its record read back compare equal.
 */
function plainChange(change: DatabaseChange): DatabaseChange {
  const base = { at: change.at, fork: change.fork ?? undefined, version: change.version }
  switch (change.type) {
    case 'entries_created':
    case 'entries_deleted':
      return {
        type: change.type,
        ...base,
        entries: change.entries.map((e) => ({ path: e.path, entryType: e.entryType })),
      }
    case 'version_created': {
      const { kind, name, metadata } = change
      return {
        type: change.type,
        ...base,
        kind,
        name,
        ...(metadata === undefined ? {} : { metadata }),
      }
    }
    case 'version_promoted':
      return { type: change.type, ...base, previous: change.previous, cause: change.cause }
  }
}

/** A record of the log's range, by sequence: its changes, or `undefined` (diff the move). */
export interface StoredRecord {
  seq: number
  changes: DatabaseChange[] | undefined
}

/** The change records of sequences `first`..`last`, oldest first (absent ones skipped). */
export async function* readChangeRecords(
  meta: MetaStore,
  first: number,
  last: number,
): AsyncGenerator<StoredRecord> {
  if (last < first) return
  const range = { gte: changeRecordKey(first), lte: changeRecordKey(last) }
  for await (const [key, value] of meta.iterate('meta', range)) {
    const seq = parseChangeRecordKey(key)
    if (seq !== undefined) yield { seq, changes: parseChangeRecord(value) }
  }
}

/**
 * The ops that drop the records of the version log records `ops` deletes (a group's batch
 * trims both together).
 */
export function trimmedRecordOps(ops: readonly MetaOp[]): MetaOp[] {
  const trimmed: MetaOp[] = []
  for (const op of ops) {
    if (op.type !== 'del' || op.space !== 'log') continue
    const seq = parseSequenceKey(op.key)
    if (seq !== undefined) trimmed.push({ type: 'del', space: 'meta', key: changeRecordKey(seq) })
  }
  return trimmed
}
