import type { EntryKind } from '../objects/tree-objects'

/** What a path holds, as returned by `stat` and `list`. */
export interface Entry {
  /** Normalised absolute path, e.g. `/docs/a.txt`. */
  path: string
  name: string
  entryType: EntryKind
  /** File size in bytes; for a directory, the total bytes of the files below it; 0 for a symlink. */
  size: number
  /**
   * Hex hash: a file's content hash (its ETag), a directory's tree hash, a symlink's object
   * hash.
   */
  hash: string
  /** A file's content type; `null` for directories and symlinks. */
  contentType: string | null
  /** Unix milliseconds. */
  createdAt: number
  updatedAt: number
  /** A symlink's target, as written. */
  target?: string
  /** A file's user metadata, when it has any. */
  metadata?: Record<string, unknown>
}

/** What a delete, move, copy, mkdir or symlink returns. */
export interface ChangeResult {
  path: string
  entryType: Entry['entryType']
  version: string
}
