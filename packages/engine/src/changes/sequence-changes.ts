import { HEAD, refKey } from '../meta/keys'
import type { DatabaseChange, SequencedChange } from './database-change'

/** The ref a change happened on (a new snapshot or fork: its own ref). */
function changedRef(change: DatabaseChange): string {
  if (change.type === 'version_created') return refKey(change.kind, change.name)
  return change.fork === undefined ? HEAD : refKey('fork', change.fork)
}

/**
 * Stamps a committed group's changes with their version log positions: each takes the
 * sequence of the group's move of its ref (moves hold `first`, `first + 1`, ...). A change
 * whose ref the group did not move (none in practice) takes the group's last sequence; a
 * group without moves reports at `first - 1`, the position it follows.
 */
export function sequenceChanges(
  changes: readonly DatabaseChange[],
  moves: readonly { ref: string }[],
  first: number,
): SequencedChange[] {
  const last = first + Math.max(moves.length, 1) - 1
  const seqOf = new Map<string, number>()
  moves.forEach((move, i) => seqOf.set(move.ref, first + i))
  return changes.map((change) => ({
    ...change,
    seq: moves.length === 0 ? first - 1 : (seqOf.get(changedRef(change)) ?? last),
  }))
}

/** Stamps changes that all come from the move at `seq`. */
export function atSequence(changes: readonly DatabaseChange[], seq: number): SequencedChange[] {
  return changes.map((change) => ({ ...change, seq }))
}
