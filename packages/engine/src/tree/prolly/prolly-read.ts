import type { ObjectReader } from '../../objects/object-store'
import type { DirEntry, DirPage, TreeObject } from '../../objects/tree-objects'
import { EngineError } from '../../errors'

/** Narrows a loaded object to a directory page. */
export function asPage(object: TreeObject): DirPage {
  if (object.type !== 'leaf' && object.type !== 'node') {
    throw new EngineError(
      'CONTENT_CORRUPT',
      `expected a directory page, found a ${object.type} object`,
    )
  }
  return object
}

/** Loads a directory page. */
export async function loadPage(reader: ObjectReader, hash: Uint8Array): Promise<DirPage> {
  return asPage(await reader.get(hash))
}

/** Index of the child of an internal page whose range holds `key`: the first whose last name ≥ key, else the last. */
export function childIndex(page: DirPage & { type: 'node' }, key: string): number {
  const items = page.items
  let lo = 0
  let hi = items.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((items[mid] as { key: string }).key < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The entry named `name` in the directory whose root page is `root`, if any. */
export async function lookupEntry(
  reader: ObjectReader,
  root: DirPage,
  name: string,
): Promise<DirEntry | undefined> {
  let page = root
  while (page.type === 'node') {
    const item = page.items[childIndex(page, name)]
    if (item === undefined) return undefined
    page = await loadPage(reader, item.hash)
  }
  const entries = page.entries
  let lo = 0
  let hi = entries.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((entries[mid] as DirEntry).name < name) lo = mid + 1
    else hi = mid
  }
  const found = entries[lo]
  return found !== undefined && found.name === name ? found : undefined
}

/**
 * Entries of a directory in name order, strictly after `after` when given. Pages are loaded
 * one at a time as the iteration advances, so a huge directory streams.
 */
export async function* iterateEntries(
  reader: ObjectReader,
  root: DirPage,
  after?: string,
): AsyncGenerator<DirEntry> {
  if (root.type === 'leaf') {
    for (const e of root.entries) if (after === undefined || e.name > after) yield e
    return
  }
  const start = after === undefined ? 0 : childIndex(root, after)
  for (let i = start; i < root.items.length; i++) {
    const item = root.items[i]
    if (item === undefined || (after !== undefined && item.key <= after)) continue
    yield* iterateEntries(reader, await loadPage(reader, item.hash), after)
  }
}
