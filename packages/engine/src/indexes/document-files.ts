import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { RESERVED_NAME } from '../path/db-path'
import { iterateEntries, loadPage } from '../tree/prolly/prolly-read'
import { childPath, relativeTo } from './document-scope'
import type { DocumentScope } from './document-scope'

/**
 * The documents below an indexed directory, in tree order: its files (and, for a nested
 * scope, its subdirectories' files) that the scope includes, never `.svcdb/`. Yields each
 * with its path relative to `base`.
 */
export async function* documentFiles(
  reader: ObjectReader,
  hash: Uint8Array,
  path: string,
  base: string,
  scope: DocumentScope,
): AsyncGenerator<[string, DirEntry]> {
  for await (const entry of iterateEntries(reader, await loadPage(reader, hash))) {
    if (entry.name === RESERVED_NAME) continue
    const child = childPath(path, entry.name)
    if (entry.kind === 'file') {
      const rel = relativeTo(base, child)
      if (scope.includes(rel)) yield [rel, entry]
    } else if (entry.kind === 'directory' && scope.nested) {
      yield* documentFiles(reader, entry.hash, child, base, scope)
    }
  }
}
