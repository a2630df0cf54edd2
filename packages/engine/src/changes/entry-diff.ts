import { throwIfAborted } from '../errors'
import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { diffDirectoryPages } from '../tree/prolly/page-diff'
import type { ChangedEntry } from './database-change'

/** One difference between two versions, at the highest path where it shows. */
export interface EntryDifference extends ChangedEntry {
  /** `created` covers entries added and entries whose content changed. */
  change: 'created' | 'deleted'
}

/**
 * The entries that differ between two directory trees, in path order. Subtrees with equal
 * hashes are skipped; a directory present on both sides is descended; an entry added or
 * removed is reported once, at its own path, not entry by entry below it (as a recursive
 * delete is). An entry that changed kind is reported deleted, then created.
 */
export async function* diffEntries(
  objects: ObjectReader,
  from: Uint8Array,
  to: Uint8Array,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<EntryDifference> {
  yield* diffDirectory(objects, from, to, '', options.signal)
}

async function* diffDirectory(
  objects: ObjectReader,
  from: Uint8Array,
  to: Uint8Array,
  prefix: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<EntryDifference> {
  // Page by page: unchanged stretches of a large directory are skipped unread.
  for await (const { before: old, after: now } of diffDirectoryPages(objects, from, to)) {
    throwIfAborted(signal, 'the version comparison')
    if (old === undefined) yield created(prefix, now as DirEntry)
    else if (now === undefined) yield deleted(prefix, old)
    else if (old.kind === 'directory' && now.kind === 'directory')
      yield* diffDirectory(objects, old.hash, now.hash, `${prefix}/${now.name}`, signal)
    else if (old.kind !== now.kind) {
      yield deleted(prefix, old)
      yield created(prefix, now)
    } else yield created(prefix, now)
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
