import { sameBytes, toHex } from '../internal/hex'
import { forkOf, HEAD, parseRefKey } from '../meta/keys'
import type { ObjectReader } from '../objects/object-store'
import type { ChangedEntry, DatabaseChange } from './database-change'
import { diffEntries } from './entry-diff'

/** A ref move as another node recorded it: what the version log and HEAD log keep of it. */
export interface LoggedMove {
  ref: string
  /** `null`: the ref did not exist before. */
  from: Uint8Array | null
  /** `null`: the ref was removed. */
  to: Uint8Array | null
  /** Unix milliseconds of the commit. */
  at: number
  /** Set when the HEAD log recorded the move (it replaced history): what moved HEAD. */
  cause?: PromoteCause
  /** The ref's info, for a snapshot or fork it created. */
  info?: { metadata?: Record<string, unknown> }
}

/** What moved a version to another, as `version_promoted` says it. */
export type PromoteCause = Extract<DatabaseChange, { type: 'version_promoted' }>['cause']

/**
 * The changes a move reports, as the mutation that made it reports them on its own node: a
 * new snapshot or fork is `version_created`; a HEAD move the HEAD log records is
 * `version_promoted`; any other move of HEAD or a fork reports the entries that differ
 * between its two versions (deleted ones first, so a path that changed kind reads deleted,
 * then created; modified entries read created, as a write of them does). Removed refs,
 * import and peer pins and moves to the same version report nothing, as locally. Where a
 * local write reports one change per mutation, a move folds a group's mutations into one per
 * kind.
 */
export async function changesOfMove(
  objects: ObjectReader,
  move: LoggedMove,
): Promise<DatabaseChange[]> {
  const { ref, from, to, at } = move
  if (to === null) return []
  const named = parseRefKey(ref)
  const fork = forkOf(ref)
  const version = toHex(to)
  if (from === null) {
    if (named === undefined || named.kind === 'import' || named.kind === 'peer') return []
    const change: DatabaseChange = {
      type: 'version_created',
      at,
      fork,
      version,
      kind: named.kind,
      name: named.name,
    }
    if (move.info?.metadata !== undefined) change.metadata = move.info.metadata
    return [change]
  }
  if ((ref !== HEAD && fork === undefined) || sameBytes(from, to)) return []
  if (move.cause !== undefined && ref === HEAD)
    return [
      {
        type: 'version_promoted',
        at,
        fork,
        version,
        previous: toHex(from),
        cause: move.cause,
      },
    ]
  const created: ChangedEntry[] = []
  const deleted: ChangedEntry[] = []
  for await (const { change, path, entryType } of diffEntries(objects, from, to))
    (change === 'deleted' ? deleted : created).push({ path, entryType })
  const changes: DatabaseChange[] = []
  if (deleted.length > 0)
    changes.push({ type: 'entries_deleted', at, fork, version, entries: deleted })
  if (created.length > 0)
    changes.push({ type: 'entries_created', at, fork, version, entries: created })
  return changes
}
