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
