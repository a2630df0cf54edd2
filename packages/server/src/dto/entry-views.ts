import type {
  changeResultSchema,
  EntryView,
  listingSchema,
  QueryResultView,
  routes,
  writeResultSchema,
} from '@svcdb/contract'
import type { ChangeResult, Entry, QueryResult, WriteResult, WrittenFile } from '@svcdb/engine'
import type * as v from 'valibot'
import type { ResponseOf } from './send-view'

/** A page of a directory listing in wire form. */
export type ListingView = v.InferOutput<typeof listingSchema>
/** A file write's answer in wire form. */
export type WriteResultView = v.InferOutput<typeof writeResultSchema>
/** The answer of mkdir, move, copy, symlink and restore in wire form. */
export type ChangeResultView = v.InferOutput<typeof changeResultSchema>

/** What an entry view is made of: an engine entry, or a query's document (always a file). */
export type EntryFacts = Pick<
  Entry,
  'path' | 'name' | 'size' | 'hash' | 'contentType' | 'createdAt' | 'updatedAt' | 'target'
> & { entryType?: Entry['entryType'] }

/**
 * An entry in wire form (DESIGN §7.1): stat, listings, symlink reads and query results.
 * `effective_permissions` only for a scoped caller; `target` only for a symlink.
 */
export function entryView(entry: EntryFacts, effectivePermissions?: string): EntryView {
  const view: EntryView = {
    path: entry.path,
    name: entry.name,
    entry_type: entry.entryType ?? 'file',
    size: entry.size,
    hash: entry.hash,
    content_type: entry.contentType,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  }
  if (entry.target !== undefined) view.target = entry.target
  if (effectivePermissions !== undefined) view.effective_permissions = effectivePermissions
  return view
}

/** A file written (`PUT /files`, `/uploads/commit`) or one file of `/uploads/commit-many`. */
export function writeResultView(file: WriteResult | WrittenFile): WriteResultView {
  return {
    path: file.path,
    name: 'name' in file ? file.name : file.path.slice(file.path.lastIndexOf('/') + 1),
    entry_type: 'file',
    size: file.size,
    // A file always has a content type; Entry's `null` is for directories and symlinks.
    content_type: file.contentType as string,
    hash: file.hash,
    version: file.version,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
  }
}

/** The answer of mkdir, move, copy, symlink and restore of a path. */
export function changeResultView(result: ChangeResult): ChangeResultView {
  return { path: result.path, entry_type: result.entryType, version: result.version }
}

/** The answer of a delete. */
export function deletedEntryView(
  result: Pick<ChangeResult, 'path' | 'entryType'>,
): ResponseOf<typeof routes.filesDelete> {
  return { deleted: true, path: result.path, entry_type: result.entryType }
}

/** A page of query results; `permissionsOf` gives a scoped caller's flags on each document. */
export function queryPageView(
  result: QueryResult,
  permissionsOf: ((path: string) => string) | undefined,
): QueryResultView {
  return {
    items: result.items.map((item) => entryView(item, permissionsOf?.(item.path))),
    ...(result.next === undefined ? {} : { next: result.next }),
    plan: result.plan,
  }
}
