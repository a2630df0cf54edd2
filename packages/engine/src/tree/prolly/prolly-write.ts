import type { WriteSet } from '../../objects/object-store'
import { pageTotals } from '../../objects/tree-objects'
import type { DirEntry, DirPage, NodeItem } from '../../objects/tree-objects'
import { closesPage, MAX_PAGE_ITEMS } from './boundary'
import { LevelCursor, pageHeight } from './level-cursor'
import { loadPage } from './prolly-read'

type Item = DirEntry | NodeItem
type Edit = [key: string, item: Item | null]

const keyOf = (item: Item): string => ('name' in item ? item.name : item.key)

function items(page: DirPage): Item[] {
  return page.type === 'leaf' ? page.entries : page.items
}

function lastKey(page: DirPage): string | undefined {
  const all = items(page)
  const last = all[all.length - 1]
  return last === undefined ? undefined : keyOf(last)
}

/** Writes a page built from `content` at `height` and returns the item that points to it. */
function emit(objects: WriteSet, height: number, content: Item[]): NodeItem {
  const page: DirPage =
    height === 0
      ? { type: 'leaf', entries: content as DirEntry[] }
      : { type: 'node', height, items: content as NodeItem[] }
  const hash = objects.put(page)
  return { key: keyOf(content[content.length - 1] as Item), hash, ...pageTotals(page) }
}

/** Merges sorted page items with the sorted edits that fall in the page's range. */
function merge(
  existing: Item[],
  edits: Edit[],
  from: number,
  limit: string | undefined,
): { merged: Item[]; next: number } {
  const merged: Item[] = []
  let e = from
  let i = 0
  while (
    i < existing.length ||
    (e < edits.length && (limit === undefined || (edits[e] as Edit)[0] <= limit))
  ) {
    const edit =
      e < edits.length && (limit === undefined || (edits[e] as Edit)[0] <= limit)
        ? (edits[e] as Edit)
        : undefined
    const item = existing[i]
    if (item !== undefined && (edit === undefined || keyOf(item) < edit[0])) {
      merged.push(item)
      i++
      continue
    }
    const [key, value] = edit as Edit
    if (item !== undefined && keyOf(item) === key) i++
    if (value !== null) merged.push(value)
    e++
  }
  return { merged, next: e }
}

/**
 * Rewrites the pages of one height touched by `edits`, resynchronising with the old pages as
 * soon as a cut falls where an old page ended. Returns the last names of the old pages that
 * were replaced and the items of the new pages, which become the edits of the height above.
 */
async function rewriteHeight(
  objects: WriteSet,
  root: DirPage,
  height: number,
  edits: Edit[],
): Promise<{ removed: string[]; added: NodeItem[] }> {
  const removed: string[] = []
  const added: NodeItem[] = []
  const cursor = new LevelCursor(objects, root, height)
  let e = 0
  while (e < edits.length) {
    let page: DirPage | undefined = await cursor.seek((edits[e] as Edit)[0])
    let run: Item[] = []
    while (page !== undefined) {
      const last = lastKey(page)
      if (last !== undefined) removed.push(last)
      const next = await cursor.peekNext()
      const { merged, next: nextEdit } = merge(
        items(page),
        edits,
        e,
        next === undefined ? undefined : last,
      )
      e = nextEdit
      for (const item of merged) {
        run.push(item)
        if (closesPage(keyOf(item), height) || run.length >= MAX_PAGE_ITEMS) {
          added.push(emit(objects, height, run))
          run = []
        }
      }
      if (next === undefined) {
        if (run.length > 0) added.push(emit(objects, height, run))
        break
      }
      // A cut at the old page's end: every later page is unchanged until the next edit.
      if (run.length === 0) break
      page = await cursor.next()
    }
  }
  return { removed, added }
}

/** Builds the upper heights over a complete list of pages until one page remains. */
function buildUp(objects: WriteSet, pages: NodeItem[], height: number): Uint8Array {
  let level = pages
  let h = height
  while (level.length > 1) {
    h++
    const next: NodeItem[] = []
    let run: NodeItem[] = []
    for (const item of level) {
      run.push(item)
      if (closesPage(item.key, h) || run.length >= MAX_PAGE_ITEMS) {
        next.push(emit(objects, h, run))
        run = []
      }
    }
    if (run.length > 0) next.push(emit(objects, h, run))
    level = next
  }
  return (level[0] as NodeItem).hash
}

/**
 * Applies edits (`null` deletes) to the directory whose root page is `root` and returns the
 * new root page hash. Only pages on the paths of the edited names are rewritten (O(log n)
 * per edit), and the result is exactly the tree a from-scratch build of the same entries
 * gives, whatever the history.
 */
export async function editDirectory(
  objects: WriteSet,
  root: DirPage,
  edits: ReadonlyMap<string, DirEntry | null>,
): Promise<Uint8Array> {
  // Nothing to change: the same page, hence the same hash (the rewrite would empty it).
  if (edits.size === 0) return objects.put(root)
  let levelEdits: Edit[] = [...edits.entries()].sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  )
  const top = pageHeight(root)
  for (let h = 0; ; h++) {
    const { removed, added } = await rewriteHeight(objects, root, h, levelEdits)
    if (h === top) {
      if (added.length === 0) return objects.put({ type: 'leaf', entries: [] })
      return collapse(objects, buildUp(objects, added, h))
    }
    const next = new Map<string, Item | null>()
    for (const key of removed) next.set(key, null)
    for (const item of added) next.set(item.key, item)
    levelEdits = [...next.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  }
}

/** Drops internal roots with a single child: the root is the lowest height with one page. */
async function collapse(objects: WriteSet, rootHash: Uint8Array): Promise<Uint8Array> {
  let hash = rootHash
  for (;;) {
    const page = await loadPage(objects, hash)
    if (page.type === 'leaf' || page.items.length !== 1) return hash
    hash = (page.items[0] as NodeItem).hash
  }
}

/** Builds a directory from scratch (the reference the incremental path must always match). */
export function buildDirectory(objects: WriteSet, entries: readonly DirEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  if (sorted.length === 0) return objects.put({ type: 'leaf', entries: [] })
  const leaves: NodeItem[] = []
  let run: DirEntry[] = []
  for (const entry of sorted) {
    run.push(entry)
    if (closesPage(entry.name, 0) || run.length >= MAX_PAGE_ITEMS) {
      leaves.push(emit(objects, 0, run))
      run = []
    }
  }
  if (run.length > 0) leaves.push(emit(objects, 0, run))
  return buildUp(objects, leaves, 0)
}
