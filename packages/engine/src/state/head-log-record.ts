import { toHex } from '../internal/hex'
import { sequenceKey } from '../meta/keys'
import type { MetaOp } from '../meta/meta-store'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Why HEAD was replaced by another line of history. */
export type HeadMoveCause = 'promote' | 'fork_promote' | 'import' | 'restore'

/** One HEAD move that replaced history: what HEAD became and what it was. */
export interface HeadLogEntry {
  /** Hex hash HEAD moved to. */
  head: string
  /** Hex hash HEAD held before: promote it to undo the move. */
  previous: string
  cause: HeadMoveCause
  /** Unix milliseconds. */
  at: number
  /** Who moved it, as the caller said (a user id, say); absent when not given. */
  by?: string
}

/** The HEAD-log part of a ref update: set on HEAD moves that replace history. */
export interface HeadLogMark {
  cause: HeadMoveCause
  by?: string
}

/**
 * The record a HEAD move writes, in the same batch as the move, keyed by the version log
 * sequence of the same move (so keys ascend).
 */
export function headLogOp(
  seq: number,
  from: Uint8Array,
  to: Uint8Array,
  at: number,
  mark: HeadLogMark,
): MetaOp {
  const entry: HeadLogEntry = { head: toHex(to), previous: toHex(from), cause: mark.cause, at }
  if (mark.by !== undefined) entry.by = mark.by
  return {
    type: 'put',
    space: 'headlog',
    key: sequenceKey(seq),
    value: encoder.encode(JSON.stringify(entry)),
  }
}

/** A stored HEAD log record, or `undefined` when it does not parse. */
export function parseHeadLogEntry(bytes: Uint8Array): HeadLogEntry | undefined {
  try {
    return JSON.parse(decoder.decode(bytes)) as HeadLogEntry
  } catch {
    return undefined
  }
}
