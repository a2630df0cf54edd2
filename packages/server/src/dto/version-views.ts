import type { HeadLogPageView, ImportResultView, routes, VersionChangeView } from '@svcdb/contract'
import type { EntryDifference, HeadLogPage, ImportResult } from '@svcdb/engine'
import type { ResponseOf } from './send-view'

/** An import's result in wire form (spec "Import result"). */
export function importView(result: ImportResult): ImportResultView {
  return {
    status: result.status,
    backup_type: result.backupType,
    entries_imported: result.entriesImported,
    chunks_imported: result.chunksImported,
    files_imported: result.filesImported,
    directories_imported: result.directoriesImported,
    deletions_applied: result.deletionsApplied,
    version_hash: result.versionHash,
    head_promoted: result.headPromoted,
  }
}

/** The answer to `POST /versions/promote`: the new HEAD. */
export function promotedView(version: string): ResponseOf<typeof routes.versionsPromote> {
  return { status: 'promoted', head: version }
}

/** A page of the HEAD log; `null` for an unknown actor and for the last page's cursor. */
export function headLogView(page: HeadLogPage): HeadLogPageView {
  return {
    items: page.items.map((entry) => ({
      head: entry.head,
      previous: entry.previous,
      cause: entry.cause,
      at: entry.at,
      by: entry.by ?? null,
    })),
    cursor: page.cursor ?? null,
  }
}

/** One entry that differs between two versions; the engine's `created` is the wire's `added`. */
export function versionChangeView(difference: EntryDifference): VersionChangeView {
  const change = difference.change === 'created' ? 'added' : difference.change
  return { path: difference.path, change, type: difference.entryType }
}
