import type { HistoryEntryView } from '@svcdb/contract'

/** What `versions.restoreFile` takes to bring back one point of a path's history. */
export type RestoreSource = { snapshot: string } | { version: string }

/**
 * Where to restore a history point from: its snapshot by name when it is one (the name reads
 * better in the log), else its version; `undefined` for a deletion, which holds nothing.
 */
export function restoreSource(point: HistoryEntryView): RestoreSource | undefined {
  if (point.hash === null || point.change_type === 'deleted') return undefined
  return point.snapshot === undefined ? { version: point.version } : { snapshot: point.snapshot }
}

/** A version hash short enough to read: its first 12 digits, as git shows them. */
export function shortVersion(hash: string): string {
  return hash.slice(0, 12)
}

/** How a history point is named on screen and in its Restore button. */
export function pointName(point: HistoryEntryView): string {
  return point.snapshot === undefined
    ? `version ${shortVersion(point.version)}`
    : `snapshot ${point.snapshot}`
}
