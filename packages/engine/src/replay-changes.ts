import { readChangeRecords } from './changes/change-record'
import type { StoredRecord } from './changes/change-record'
import type { SequencedChange } from './changes/database-change'
import { changesOfMove } from './changes/move-changes'
import type { LoggedMove, PromoteCause } from './changes/move-changes'
import { atSequence } from './changes/sequence-changes'
import type { SequencedMove } from './changes/shared-change-order'
import type { EngineCore } from './engine-core'
import { EngineError, throwIfAborted } from './errors'
import { parseSequenceKey, sequenceKey } from './meta/keys'
import type { MetaStore } from './meta/meta-store'
import { parseHeadLogEntry } from './state/head-log-record'
import type { HeadMoveCause } from './state/head-log-record'
import type { RefMove } from './state/ref-move'
import { logRoot, readVersionLog } from './state/version-log'

/** Options of {@link replayChanges}. */
export interface ReplayChangesOptions {
  /** The version log position to replay after (a change's `seq`; 0 for the whole log). */
  after: number
  /** Ends the replay with `ABORTED`. */
  signal?: AbortSignal
}

/**
 * The changes the version log holds after position `after`, oldest first, each with its
 * `seq`, up to the latest commit when called (in a shared database, of any node: the state is
 * refreshed first). Each move reports the changes its commit recorded with it, as every node
 * reported them live; a move recorded without them (too many entries, or committed before
 * changes were recorded) reports the diff of its two versions, as live reports did.
 * Bounded by the log, which keeps the last `versionLogLimit` moves: `NOT_FOUND` when it no
 * longer holds the move after `after` (trimmed), or when `after` is past the latest move.
 */
export async function* replayChanges(
  core: EngineCore,
  options: ReplayChangesOptions,
): AsyncGenerator<SequencedChange> {
  const { after } = options
  if (!Number.isSafeInteger(after) || after < 0)
    throw new EngineError('INVALID_INPUT', `after must be a non-negative integer, got ${after}`)
  core.assertOpen()
  await core.refreshShared()
  const last = core.state.lastLogSeq
  if (after > last)
    throw new EngineError('NOT_FOUND', `no change at position ${after} yet (the latest is ${last})`)
  let expected = after + 1
  for await (const { seq, move, recorded } of loggedMoves(core.meta, expected, last)) {
    if (seq !== expected) break
    throwIfAborted(options.signal, 'the change replay')
    if (move.from === null && move.to !== null) {
      const info = core.state.infos.get(move.ref)
      if (info !== undefined) move.info = info
    }
    yield* atSequence(recorded ?? (await changesOfMove(core.objects, move)), seq)
    expected++
  }
  if (expected <= last)
    throw new EngineError(
      'NOT_FOUND',
      `the version log no longer holds the changes after position ${after}; resynchronise`,
    )
}

/**
 * An id of the database, the same on every node sharing it (from its creation record), so an
 * event id naming a change position also names the database it belongs to.
 */
export function changeLogId(core: EngineCore): string {
  return Math.max(0, Math.floor(core.format.createdAt)).toString(36)
}

const PROMOTE_CAUSES = {
  promote: 'promote',
  fork_promote: 'fork',
  import: 'import',
  restore: 'restore',
} as const satisfies Record<HeadMoveCause, PromoteCause>

/**
 * A group's move as the logs keep it (with the cause the HEAD log records, when it records
 * it), so the committing node diffs a move exactly as the others do.
 */
export function loggedMove(move: RefMove): LoggedMove {
  const logged: LoggedMove = { ref: move.ref, from: move.from, to: move.to, at: move.at }
  if (move.headLog !== undefined && move.from !== null && move.to !== null)
    logged.cause = PROMOTE_CAUSES[move.headLog.cause]
  if (move.info !== undefined) logged.info = move.info
  return logged
}

/**
 * The version log's moves `first`..`last`, oldest first, with the HEAD log's causes and the
 * changes recorded with each (read alongside the log, one record at a time).
 */
export async function* loggedMoves(
  meta: MetaStore,
  first: number,
  last: number,
): AsyncGenerator<SequencedMove> {
  const causes = new Map<number, PromoteCause>()
  const range = { gte: sequenceKey(first), lte: sequenceKey(last) }
  for await (const [key, value] of meta.iterate('headlog', range)) {
    const seq = parseSequenceKey(key)
    const entry = parseHeadLogEntry(value)
    if (seq !== undefined && entry !== undefined) causes.set(seq, PROMOTE_CAUSES[entry.cause])
  }
  const records = readChangeRecords(meta, first, last)
  let record: IteratorResult<StoredRecord> | undefined
  try {
    for await (const logged of readVersionLog(meta, { after: first - 1 })) {
      if (logged.seq > last) return
      record ??= await records.next()
      while (record.done !== true && record.value.seq < logged.seq) record = await records.next()
      const recorded =
        record.done !== true && record.value.seq === logged.seq ? record.value.changes : undefined
      const cause = causes.get(logged.seq)
      yield {
        seq: logged.seq,
        move: {
          ref: logged.ref,
          from: logRoot(logged.from) ?? null,
          to: logRoot(logged.to) ?? null,
          at: logged.at,
          ...(cause === undefined ? {} : { cause }),
        },
        ...(recorded === undefined ? {} : { recorded }),
      }
    }
  } finally {
    await records.return(undefined)
  }
}
