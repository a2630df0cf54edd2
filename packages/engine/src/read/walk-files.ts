import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { normalizePath, pathSegments } from '../path/db-path'
import { iterateEntries, loadPage } from '../tree/prolly/prolly-read'

interface Frame {
  entries: AsyncGenerator<DirEntry>
  prefix: string[]
}

/**
 * Every file below the directory whose root page is `root`, depth first in name order, with
 * its path relative to that directory; strictly after the relative path `after` when given.
 * An explicit stack of open directories, not recursion: a path may be 2,048 levels deep, and
 * that many nested generators overflowed the stack.
 */
export async function* walkFiles(
  objects: ObjectReader,
  root: Uint8Array,
  after?: string,
): AsyncGenerator<[string, DirEntry]> {
  const afterParts = after === undefined ? undefined : pathSegments(normalizePath(after))
  const stack: Frame[] = [
    { entries: iterateEntries(objects, await loadPage(objects, root)), prefix: [] },
  ]
  try {
    while (stack.length > 0) {
      const frame = stack.at(-1) as Frame
      const next = await frame.entries.next()
      if (next.done === true) {
        stack.pop()
        continue
      }
      const entry = next.value
      const rel = [...frame.prefix, entry.name]
      if (afterParts !== undefined && !isAfter(rel, afterParts, entry.kind === 'directory'))
        continue
      if (entry.kind === 'directory') {
        const page = await loadPage(objects, entry.hash)
        stack.push({ entries: iterateEntries(objects, page), prefix: rel })
      } else if (entry.kind === 'file') yield [rel.join('/'), entry]
    }
  } finally {
    // A consumer that stops early (a page is full) closes the directories still open.
    for (const frame of stack.reverse()) await frame.entries.return(undefined)
  }
}

/** True when relative path `rel` sorts after `after` in a depth-first walk (directories are entered when they may hold later paths). */
function isAfter(rel: string[], after: string[], isDir: boolean): boolean {
  for (let i = 0; i < Math.min(rel.length, after.length); i++) {
    const a = rel[i] as string
    const b = after[i] as string
    if (a !== b) return a > b
  }
  return isDir ? rel.length < after.length || false : rel.length > after.length
}
