import { toHex } from '../internal/hex'
import type { EntryKind } from '../objects/tree-objects'
import { forkOf } from '../meta/keys'

/** An entry a change touched. Paths are absolute (`/a/b.txt`). */
export interface ChangedEntry {
  path: string
  entryType: EntryKind
}

/** Fields every change carries: when it became durable and where it happened. */
interface ChangeBase {
  /** Unix milliseconds of the commit. */
  at: number
  /** The fork written to, or `undefined` for HEAD. */
  fork: string | undefined
  /** Hex hash of the version the change produced. */
  version: string
  /**
   * The change's position in the version log: the sequence of the ref move that produced it,
   * the same on every node of a shared database (several changes of one commit may share
   * it). Set on every change the database reports ({@link SequencedChange}); absent only
   * while a mutation builds it.
   */
  seq?: number
}

/**
 * What the change feed reports, once durable (DESIGN §5): entries created (written, copied,
 * moved here, restored) or deleted (deleted, moved away), versions created (snapshots and
 * forks), and whole-version moves of HEAD or a fork (restore, promote, import).
 */
export type DatabaseChange =
  | (ChangeBase & { type: 'entries_created'; entries: ChangedEntry[] })
  | (ChangeBase & { type: 'entries_deleted'; entries: ChangedEntry[] })
  | (ChangeBase & {
      type: 'version_created'
      kind: 'snapshot' | 'fork'
      name: string
      metadata?: Record<string, unknown>
    })
  | (ChangeBase & {
      type: 'version_promoted'
      /** Hex hash of the version replaced. */
      previous: string
      /** What moved it: a snapshot restore, a fork promote, a promote by hash, or an import. */
      cause: 'restore' | 'fork' | 'promote' | 'import'
    })

/** A change as the database reports it: with its version log position. */
export type SequencedChange = DatabaseChange & { seq: number }

/** An `entries_created` or `entries_deleted` change of `ref`. */
export function entriesChange(
  type: 'entries_created' | 'entries_deleted',
  ref: string,
  root: Uint8Array,
  at: number,
  entries: ChangedEntry[],
): DatabaseChange {
  return { type, at, fork: forkOf(ref), version: toHex(root), entries }
}
