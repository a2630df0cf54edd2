import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { RESERVED_NAME } from '../path/db-path'
import { iterateEntries, loadPage } from '../tree/prolly/prolly-read'
import { childPath, relativeTo } from './document-scope'
import type { DocumentScope } from './document-scope'

interface Frame {
  entries: AsyncGenerator<DirEntry>
  path: string
}

/**
 * The documents below an indexed directory, in tree order: its files (and, for a nested
 * scope, its subdirectories' files) that the scope includes, never `.svcdb/`. Yields each
 * with its path relative to `base`. Subdirectories go on an explicit stack, not into
 * recursion, so a path thousands of levels deep costs no call stack.
 */
export async function* documentFiles(
  reader: ObjectReader,
  hash: Uint8Array,
  path: string,
  base: string,
  scope: DocumentScope,
): AsyncGenerator<[string, DirEntry]> {
  const stack: Frame[] = [{ entries: iterateEntries(reader, await loadPage(reader, hash)), path }]
  try {
    while (stack.length > 0) {
      const frame = stack.at(-1) as Frame
      const next = await frame.entries.next()
      if (next.done === true) {
        stack.pop()
        continue
      }
      const entry = next.value
      if (entry.name === RESERVED_NAME) continue
      const child = childPath(frame.path, entry.name)
      if (entry.kind === 'file') {
        const rel = relativeTo(base, child)
        if (scope.includes(rel)) yield [rel, entry]
      } else if (entry.kind === 'directory' && scope.nested) {
        stack.push({
          entries: iterateEntries(reader, await loadPage(reader, entry.hash)),
          path: child,
        })
      }
    }
  } finally {
    for (const frame of stack.reverse()) await frame.entries.return(undefined)
  }
}
