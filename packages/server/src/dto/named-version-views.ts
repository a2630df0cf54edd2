import type { ForkView, HistoryEntryView, routes, SnapshotView } from '@svcdb/contract'
import type { ForkInfo, HistoryEntry, SnapshotInfo } from '@svcdb/engine'
import type { ResponseOf } from './send-view'

/** A snapshot in the API's snake_case. */
export function snapshotView(snapshot: SnapshotInfo): SnapshotView {
  return {
    name: snapshot.name,
    version: snapshot.version,
    created_at: snapshot.createdAt,
    ...(snapshot.metadata === undefined ? {} : { metadata: snapshot.metadata }),
  }
}

/** A fork in the API's snake_case. */
export function forkView(fork: ForkInfo): ForkView {
  return { name: fork.name, version: fork.version, base: fork.base, created_at: fork.createdAt }
}

/** A point of a path's history in the API's snake_case. */
export function historyEntryView(entry: HistoryEntry): HistoryEntryView {
  return {
    ...(entry.snapshot === undefined ? {} : { snapshot: entry.snapshot }),
    version: entry.version,
    timestamp: entry.timestamp,
    change_type: entry.changeType,
    size: entry.size,
    content_type: entry.contentType,
    hash: entry.hash,
  }
}

/** HEAD moved by a restore or a fork's promotion: the new HEAD and the one it replaced. */
export function headMoveView(
  status: 'restored' | 'promoted',
  moved: { version: string; previous: string },
): ResponseOf<typeof routes.versionsRestore> {
  return { status, head: moved.version, previous: moved.previous }
}
