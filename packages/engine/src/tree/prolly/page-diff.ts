import { sameBytes } from '../../internal/hex'
import type { ObjectReader } from '../../objects/object-store'
import type { DirEntry } from '../../objects/tree-objects'
import { loadPage } from './prolly-read'

type Item = { page: Uint8Array; height: number } | { entry: DirEntry }

/** One difference between two directories: an entry only in `before`, only in `after`, or changed. */
export interface EntryChange {
  before: DirEntry | undefined
  after: DirEntry | undefined
}

/**
 * The entries that differ between two directories, in name order. Both prolly trees are
 * walked side by side and pages with equal hashes are skipped unread, so the cost follows
 * the change, not the directory: an edit in a directory of a million entries reads a few
 * pages on each side. Either side may be absent (an empty directory).
 */
export async function* diffDirectoryPages(
  reader: ObjectReader,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
): AsyncGenerator<EntryChange> {
  if (before !== undefined && after !== undefined && sameBytes(before, after)) return
  // Stacks: the smallest pending item is on top.
  const a: Item[] = before === undefined ? [] : [{ page: before, height: Infinity }]
  const b: Item[] = after === undefined ? [] : [{ page: after, height: Infinity }]
  for (;;) {
    const x = a.at(-1)
    const y = b.at(-1)
    if (x === undefined && y === undefined) return
    if (x !== undefined && y !== undefined && 'page' in x && 'page' in y) {
      if (sameBytes(x.page, y.page)) {
        a.pop()
        b.pop()
        continue
      }
      // Open the taller one (both when equal), so that equal subtrees meet at one height.
      if (x.height >= y.height) await expand(reader, a)
      if (y.height >= x.height) await expand(reader, b)
      continue
    }
    if (x !== undefined && 'page' in x) {
      await expand(reader, a)
      continue
    }
    if (y !== undefined && 'page' in y) {
      await expand(reader, b)
      continue
    }
    const old = x?.entry
    const now = y?.entry
    if (old !== undefined && (now === undefined || old.name < now.name)) {
      a.pop()
      yield { before: old, after: undefined }
    } else if (now !== undefined && (old === undefined || now.name < old.name)) {
      b.pop()
      yield { before: undefined, after: now }
    } else if (old !== undefined && now !== undefined) {
      a.pop()
      b.pop()
      if (old.kind !== now.kind || !sameBytes(old.hash, now.hash)) yield { before: old, after: now }
    }
  }
}

/** Replaces the page on top of `stack` with its children, the first on top. */
async function expand(reader: ObjectReader, stack: Item[]): Promise<void> {
  const top = stack.pop() as { page: Uint8Array; height: number }
  const page = await loadPage(reader, top.page)
  if (page.type === 'leaf') {
    for (let i = page.entries.length - 1; i >= 0; i--)
      stack.push({ entry: page.entries[i] as DirEntry })
  } else {
    for (let i = page.items.length - 1; i >= 0; i--)
      stack.push({ page: (page.items[i] as { hash: Uint8Array }).hash, height: page.height - 1 })
  }
}
