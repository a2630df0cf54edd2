import { throwIfAborted } from '../errors'
import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { diffDirectoryPages } from '../tree/prolly/page-diff'
import type { EntryChange } from '../tree/prolly/page-diff'
import type { ChangedEntry } from './database-change'

/** One difference between two versions, at the highest path where it shows. */
export interface EntryDifference extends ChangedEntry {
  /**
   * `created`: absent before; `modified`: the same kind of entry at the path, with other
   * content (a file's bytes or metadata, a symlink's target); `deleted`: absent after.
   */
  change: 'created' | 'modified' | 'deleted'
}

interface Frame {
  changes: AsyncGenerator<EntryChange>
  prefix: string
}

/**
 * The entries that differ between two directory trees, in path order. Subtrees with equal
 * hashes are skipped; a directory present on both sides is descended; an entry added or
 * removed is reported once, at its own path, not entry by entry below it (as a recursive
 * delete is). An entry that changed kind is reported deleted, then created. Directories are
 * descended with an explicit stack, so a path thousands of levels deep costs no call stack.
 */
export async function* diffEntries(
  objects: ObjectReader,
  from: Uint8Array,
  to: Uint8Array,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<EntryDifference> {
  // Page by page: unchanged stretches of a large directory are skipped unread.
  const stack: Frame[] = [{ changes: diffDirectoryPages(objects, from, to), prefix: '' }]
  try {
    while (stack.length > 0) {
      const frame = stack.at(-1) as Frame
      const next = await frame.changes.next()
      if (next.done === true) {
        stack.pop()
        continue
      }
      throwIfAborted(options.signal, 'the version comparison')
      const { before: old, after: now } = next.value
      const prefix = frame.prefix
      if (old === undefined) yield created(prefix, now as DirEntry)
      else if (now === undefined) yield deleted(prefix, old)
      else if (old.kind === 'directory' && now.kind === 'directory') {
        const changes = diffDirectoryPages(objects, old.hash, now.hash)
        stack.push({ changes, prefix: `${prefix}/${now.name}` })
      } else if (old.kind !== now.kind) {
        yield deleted(prefix, old)
        yield created(prefix, now)
      } else yield { change: 'modified', path: `${prefix}/${now.name}`, entryType: now.kind }
    }
  } finally {
    for (const frame of stack.reverse()) await frame.changes.return(undefined)
  }
}

const created = (prefix: string, entry: DirEntry): EntryDifference => ({
  change: 'created',
  path: `${prefix}/${entry.name}`,
  entryType: entry.kind,
})

const deleted = (prefix: string, entry: DirEntry): EntryDifference => ({
  change: 'deleted',
  path: `${prefix}/${entry.name}`,
  entryType: entry.kind,
})
