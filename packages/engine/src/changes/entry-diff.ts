import { throwIfAborted } from '../errors'
import { sameBytes } from '../internal/hex'
import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { iterateEntries, loadPage } from '../tree/prolly/prolly-read'
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
  if (sameBytes(from, to)) return
  const before = iterateEntries(objects, await loadPage(objects, from))
  const after = iterateEntries(objects, await loadPage(objects, to))
  let a = await before.next()
  let b = await after.next()
  while (a.done !== true || b.done !== true) {
    throwIfAborted(signal, 'the version comparison')
    const old: DirEntry | undefined = a.done === true ? undefined : a.value
    const now: DirEntry | undefined = b.done === true ? undefined : b.value
    if (old !== undefined && (now === undefined || old.name < now.name)) {
      yield deleted(prefix, old)
      a = await before.next()
    } else if (now !== undefined && (old === undefined || now.name < old.name)) {
      yield created(prefix, now)
      b = await after.next()
    } else if (old !== undefined && now !== undefined) {
      if (!sameBytes(old.hash, now.hash) || old.kind !== now.kind) {
        if (old.kind === 'directory' && now.kind === 'directory') {
          yield* diffDirectory(objects, old.hash, now.hash, `${prefix}/${now.name}`, signal)
        } else if (old.kind !== now.kind) {
          yield deleted(prefix, old)
          yield created(prefix, now)
        } else {
          yield created(prefix, now)
        }
      }
      a = await before.next()
      b = await after.next()
    }
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
