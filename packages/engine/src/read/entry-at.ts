import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { pathSegments } from '../path/db-path'
import { loadPage, lookupEntry } from '../tree/prolly/prolly-read'

/**
 * The entry literally at a normalised path below `root`, following no symlinks; `undefined`
 * when nothing is there or a parent is not a directory. For history and restores, which are
 * about what a path held, not where it pointed.
 */
export async function entryAt(
  reader: ObjectReader,
  root: Uint8Array,
  path: string,
): Promise<DirEntry | undefined> {
  let dir = root
  let entry: DirEntry | undefined
  for (const name of pathSegments(path)) {
    if (entry !== undefined && entry.kind !== 'directory') return undefined
    entry = await lookupEntry(reader, await loadPage(reader, dir), name)
    if (entry === undefined) return undefined
    dir = entry.hash
  }
  return entry
}
