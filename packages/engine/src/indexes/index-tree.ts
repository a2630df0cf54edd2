import type { ObjectReader } from '../objects/object-store'
import type { DirEntry, DirPage } from '../objects/tree-objects'
import { childIndex, iterateEntries, loadPage } from '../tree/prolly/prolly-read'

/**
 * An index is a prolly tree of the same pages as a directory (DESIGN §3.8), each entry named
 * by its key (`encodedValue \0 relPath`): edits rewrite O(log n) pages, versions share the
 * rest, and a version's index is found by the directory's own tree hash.
 */

/** Entries with keys after `after` (exclusive), ascending, until `stop` says a key is past the range. */
export async function* indexForward(
  reader: ObjectReader,
  root: Uint8Array,
  after: string | undefined,
  stop: (key: string) => boolean,
): AsyncGenerator<DirEntry> {
  for await (const entry of iterateEntries(reader, await loadPage(reader, root), after)) {
    if (stop(entry.name)) return
    yield entry
  }
}

/** Entries with keys before `before` (exclusive), descending, until `stop` says a key is past the range. */
export async function* indexBackward(
  reader: ObjectReader,
  root: Uint8Array,
  before: string | undefined,
  stop: (key: string) => boolean,
): AsyncGenerator<DirEntry> {
  for await (const entry of backward(reader, await loadPage(reader, root), before)) {
    if (stop(entry.name)) return
    yield entry
  }
}

async function* backward(
  reader: ObjectReader,
  page: DirPage,
  before: string | undefined,
): AsyncGenerator<DirEntry> {
  if (page.type === 'leaf') {
    for (let i = page.entries.length - 1; i >= 0; i--) {
      const entry = page.entries[i] as DirEntry
      if (before === undefined || entry.name < before) yield entry
    }
    return
  }
  const start = before === undefined ? page.items.length - 1 : childIndex(page, before)
  for (let i = start; i >= 0; i--) {
    const item = page.items[i]
    if (item === undefined) continue
    yield* backward(reader, await loadPage(reader, item.hash), before)
  }
}

/** How many documents an index holds: the file count its root page keeps. */
export async function indexSize(reader: ObjectReader, root: Uint8Array): Promise<number> {
  const page = await loadPage(reader, root)
  if (page.type === 'leaf') return page.entries.length
  return page.items.reduce((sum, item) => sum + item.files, 0)
}
