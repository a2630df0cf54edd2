import { EngineError } from '../errors'
import { sameBytes } from '../internal/hex'
import type { WriteSet } from '../objects/object-store'
import { pageTotals } from '../objects/tree-objects'
import type { DirEntry, Totals } from '../objects/tree-objects'
import { joinSegments } from '../path/db-path'
import { loadPage, lookupEntry } from './prolly/prolly-read'
import { editDirectory } from './prolly/prolly-write'

/** What a change at a path decides, given the entry there now (if any). */
export type EntryChange = (
  existing: DirEntry | undefined,
) => DirEntry | null | undefined | Promise<DirEntry | null | undefined>

/** Options of {@link editAtPath}. */
export interface EditOptions {
  /** Create missing parent directories (else a missing parent is `NOT_FOUND`). */
  createParents: boolean
  /** Time stamped on directories created or changed. */
  now: number
}

/** A directory's new root hash and totals after an edit. */
export interface DirResult {
  hash: Uint8Array
  totals: Totals
}

/** The root hash of an empty directory. */
export function emptyDirectory(objects: WriteSet): Uint8Array {
  return objects.put({ type: 'leaf', entries: [] })
}

/** A directory entry pointing at `result`. */
export function directoryEntry(
  name: string,
  result: DirResult,
  createdAt: number,
  updatedAt: number,
): DirEntry {
  const { totals } = result
  return {
    name,
    kind: 'directory',
    hash: result.hash,
    size: totals.bytes,
    createdAt,
    updatedAt,
    files: totals.files,
    dirs: totals.dirs,
    links: totals.links,
  }
}

/**
 * The directory to descend into at `segments[depth]`, and its creation time: the existing
 * one, or a new empty one when parents may be created. A file or symlink on the way is
 * `NOT_A_DIRECTORY`; a missing parent without `createParents`, `NOT_FOUND`.
 */
export function descendInto(
  objects: WriteSet,
  existing: DirEntry | undefined,
  segments: readonly string[],
  options: EditOptions,
  depth: number,
): { childHash: Uint8Array; createdAt: number } {
  if (existing === undefined) {
    if (!options.createParents) {
      throw new EngineError(
        'NOT_FOUND',
        `no such directory: ${joinSegments(segments.slice(0, depth + 1))}`,
      )
    }
    return { childHash: emptyDirectory(objects), createdAt: options.now }
  }
  if (existing.kind !== 'directory') {
    const at = joinSegments(segments.slice(0, depth + 1))
    throw new EngineError('NOT_A_DIRECTORY', `${at} is a ${existing.kind}, not a directory`, {
      path: at,
    })
  }
  return { childHash: existing.hash, createdAt: existing.createdAt }
}

/**
 * Applies `change` to the entry at `segments` below the directory `dirHash` and rewrites
 * every directory on the way up (their sizes, counts and `updatedAt`). `change` returning
 * `undefined` means "no change": the directory hash is returned untouched. Parents must be
 * directories: a file or symlink on the way is `NOT_A_DIRECTORY`.
 */
export async function editAtPath(
  objects: WriteSet,
  dirHash: Uint8Array,
  segments: readonly string[],
  change: EntryChange,
  options: EditOptions,
  depth = 0,
): Promise<DirResult> {
  const root = await loadPage(objects, dirHash)
  const name = segments[depth] as string
  const existing = await lookupEntry(objects, root, name)
  let replacement: DirEntry | null | undefined
  if (depth === segments.length - 1) {
    replacement = await change(existing)
  } else {
    const { childHash, createdAt } = descendInto(objects, existing, segments, options, depth)
    const child = await editAtPath(objects, childHash, segments, change, options, depth + 1)
    if (existing !== undefined && sameBytes(child.hash, existing.hash)) replacement = undefined
    else replacement = directoryEntry(name, child, createdAt, options.now)
  }
  if (replacement === undefined) return { hash: dirHash, totals: pageTotals(root) }
  const hash = await editDirectory(objects, root, new Map([[name, replacement]]))
  return { hash, totals: pageTotals(await loadPage(objects, hash)) }
}
