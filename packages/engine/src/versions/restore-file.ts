import { entriesChange } from '../changes/database-change'
import type { Mutation } from '../commit/mutation'
import { EngineError } from '../errors'
import { toHex } from '../internal/hex'
import { normalizePath, pathSegments } from '../path/db-path'
import { entryAt } from '../read/entry-at'
import { editAtPath } from '../tree/tree-edit'
import type { ChangeResult } from '../read/entry'

/**
 * Puts the entry `path` holds in version `source` into `ref` at the same path, replacing
 * whatever is there and creating parents. Only references move: a restored directory brings
 * its whole subtree for the cost of one entry.
 */
export function restoreFileMutation(
  ref: string,
  path: string,
  source: Uint8Array,
): Mutation<ChangeResult> {
  const target = normalizePath(path)
  if (target === '/') {
    throw new EngineError(
      'INVALID_PATH',
      'restoring "/" is restoring the whole version: use snapshots.restore() or promote()',
      { path: target },
    )
  }
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }) {
      const entry = await entryAt(objects, source, target)
      if (entry === undefined) {
        throw new EngineError('NOT_FOUND', `${target} does not exist in version ${toHex(source)}`, {
          path: target,
        })
      }
      const result = await editAtPath(objects, root, pathSegments(target), () => entry, {
        createParents: true,
        now,
      })
      const changed = { path: target, entryType: entry.kind }
      return {
        root: result.hash,
        changes: [entriesChange('entries_created', ref, result.hash, now, [changed])],
        result: { ...changed, version: toHex(result.hash) },
      }
    },
  }
}
