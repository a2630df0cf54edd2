import type { DatabaseChange } from '../changes/database-change'
import { sameBytes, toHex } from '../internal/hex'
import type { WriteSet } from '../objects/object-store'
import { HEAD, refKey } from '../meta/keys'
import type { RefMove } from '../state/ref-move'

/** What a group of tree edits comes to once its intermediate versions are folded away. */
export interface Collapsed {
  /** One move per ref, from its root before the group to its root after it. */
  moves: RefMove[]
  /** The version each replaced intermediate version became (the final one of its ref). */
  renamed: (ref: string | undefined, version: string) => string
}

const key = (ref: string, version: string) => `${ref}\u0000${version}`

/**
 * Folds the versions a group of tree edits made one after another into the last one per ref:
 * nobody could read the intermediate ones before the group is durable, so they need not be
 * stored. Keeps only the new objects the final roots reach and says which final version
 * each intermediate one became (for the writers' results and the change feed). `undefined`
 * when every ref moved at most once (nothing to fold).
 */
export function collapseVersions(
  moves: readonly RefMove[],
  objects: WriteSet,
): Collapsed | undefined {
  const byRef = new Map<string, RefMove[]>()
  for (const move of moves) {
    const list = byRef.get(move.ref)
    if (list === undefined) byRef.set(move.ref, [move])
    else list.push(move)
  }
  if ([...byRef.values()].every((list) => list.length === 1)) return undefined
  const names = new Map<string, string>()
  const folded: RefMove[] = []
  for (const [ref, list] of byRef) {
    const first = list[0] as RefMove
    const last = list[list.length - 1] as RefMove
    folded.push({ ...last, from: first.from })
    if (last.to === null) continue
    const final = toHex(last.to)
    for (const move of list)
      if (move.to !== null && !sameBytes(move.to, last.to))
        names.set(key(ref, toHex(move.to)), final)
  }
  objects.retainReachable(folded.flatMap((move) => (move.to === null ? [] : [move.to])))
  return {
    moves: folded,
    renamed: (ref, version) =>
      ref === undefined ? version : (names.get(key(ref, version)) ?? version),
  }
}

/** The ref a change happened on. */
export function refOfChange(change: DatabaseChange): string {
  return change.fork === undefined ? HEAD : refKey('fork', change.fork)
}
