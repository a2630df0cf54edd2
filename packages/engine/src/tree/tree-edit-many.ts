import { EngineError } from '../errors'
import { sameBytes } from '../internal/hex'
import type { WriteSet } from '../objects/object-store'
import { pageTotals } from '../objects/tree-objects'
import type { DirEntry } from '../objects/tree-objects'
import { loadPage, lookupEntry } from './prolly/prolly-read'
import { editDirectory } from './prolly/prolly-write'
import { descendInto, directoryEntry } from './tree-edit'
import type { DirResult, EditOptions, EntryChange } from './tree-edit'

/** One change of {@link editManyAtPaths}: `change` applied to the entry at `segments`. */
export interface PathChange {
  /** Names from the edited directory down to the entry (at least one). */
  segments: readonly string[]
  change: EntryChange
}

/**
 * What happens to one name of a directory, in the order the changes came: a change of the
 * entry itself, or a run of changes below it (applied in one recursive pass).
 */
type Step = { change: EntryChange } | { below: PathChange[] }

/** Groups changes by the name they touch at `depth`, keeping their order per name. */
function stepsByName(changes: readonly PathChange[], depth: number): Map<string, Step[]> {
  const byName = new Map<string, Step[]>()
  for (const item of changes) {
    const name = item.segments[depth] as string
    let steps = byName.get(name)
    if (steps === undefined) byName.set(name, (steps = []))
    if (item.segments.length - 1 === depth) {
      steps.push({ change: item.change })
      continue
    }
    const last = steps[steps.length - 1]
    if (last !== undefined && 'below' in last) last.below.push(item)
    else steps.push({ below: [item] })
  }
  return byName
}

/**
 * Applies many changes below the directory `dirHash` in one pass: changes are grouped by
 * directory, each touched directory is rewritten once (one {@link editDirectory} with all
 * its edits) and so is each ancestor, instead of once per change. The result is exactly the
 * tree {@link editAtPath} gives applying the same changes one by one, in order, with the
 * same `now` (same rules: `createParents`, `NOT_FOUND`, `NOT_A_DIRECTORY`, directory totals
 * and `updatedAt`); several changes of one path see each other's result, in order.
 */
export async function editManyAtPaths(
  objects: WriteSet,
  dirHash: Uint8Array,
  changes: readonly PathChange[],
  options: EditOptions,
): Promise<DirResult> {
  for (const { segments } of changes) {
    if (segments.length === 0)
      throw new EngineError('INVALID_PATH', 'cannot change the root directory', { path: '/' })
  }
  return editBelow(objects, dirHash, changes, options, 0)
}

/** A directory's result, and whether any step changed one of its entries (its hash moved at some step). */
interface BelowResult extends DirResult {
  touched: boolean
}

function sameEntry(a: DirEntry, b: DirEntry): boolean {
  return (
    a.name === b.name &&
    a.kind === b.kind &&
    sameBytes(a.hash, b.hash) &&
    a.size === b.size &&
    a.createdAt === b.createdAt &&
    a.updatedAt === b.updatedAt &&
    a.files === b.files &&
    a.dirs === b.dirs &&
    a.links === b.links
  )
}

// `touched` keeps the one-by-one semantics exact when changes cancel out (a file written,
// then deleted): applied one by one, every directory above still got `updatedAt: now`.
async function editBelow(
  objects: WriteSet,
  dirHash: Uint8Array,
  changes: readonly PathChange[],
  options: EditOptions,
  depth: number,
): Promise<BelowResult> {
  const root = await loadPage(objects, dirHash)
  const edits = new Map<string, DirEntry | null>()
  for (const [name, steps] of stepsByName(changes, depth)) {
    let current = await lookupEntry(objects, root, name)
    let touched = false
    for (const step of steps) {
      if ('change' in step) {
        const next = await step.change(current)
        if (next === undefined) continue
        if (
          next === null ? current !== undefined : current === undefined || !sameEntry(next, current)
        )
          touched = true
        current = next ?? undefined
      } else {
        const first = step.below[0] as PathChange
        const next = await editChild(objects, current, first.segments, step.below, options, depth)
        if (next === undefined) continue
        touched = true
        current = next
      }
    }
    if (touched) edits.set(name, current ?? null)
  }
  if (edits.size === 0) return { hash: dirHash, totals: pageTotals(root), touched: false }
  const hash = await editDirectory(objects, root, edits)
  return { hash, totals: pageTotals(await loadPage(objects, hash)), touched: true }
}

/**
 * The new entry of the directory `current` (named `segments[depth]`) after `below` changes
 * inside it, created when missing and allowed; `undefined` when none of them changed it.
 */
async function editChild(
  objects: WriteSet,
  current: DirEntry | undefined,
  segments: readonly string[],
  below: readonly PathChange[],
  options: EditOptions,
  depth: number,
): Promise<DirEntry | undefined> {
  const name = segments[depth] as string
  const { childHash, createdAt } = descendInto(objects, current, segments, options, depth)
  const child = await editBelow(objects, childHash, below, options, depth + 1)
  if (current !== undefined && !child.touched) return undefined
  return directoryEntry(name, child, createdAt, options.now)
}
