import { entriesChange } from '../changes/database-change'
import type { ChangedEntry } from '../changes/database-change'
import type { Mutation } from '../commit/mutation'
import { toHex } from '../internal/hex'
import type { FileObject } from '../objects/tree-objects'
import { pathSegments } from '../path/db-path'
import { editManyAtPaths } from '../tree/tree-edit-many'
import type { PathChange } from '../tree/tree-edit-many'
import { fileEntry } from './file-object'
import { conflict } from './mutations'
import type { Ingested } from './ingest'

/** One file of a bulk write, its content already ingested. */
export interface BulkEntry {
  /** Normalised, not the root. */
  path: string
  content: Ingested
  contentType: string
  /** User metadata as JSON text (`''` for none). */
  metadata: string
}

/** What a bulk write did to one file. */
export interface BulkOutcome {
  /** True when the path held no file before (in this batch: before its first write). */
  created: boolean
  file: FileObject
}

/**
 * Writes every file of `entries` (in order: a path given twice ends with its last write) as
 * one new version of `ref`, creating parent directories: one tree edit for all of them (each
 * touched directory rewritten once), one `entries_created` change naming each path once. A
 * file that cannot be written (a directory at its path, a file where a parent directory is
 * needed) fails the whole mutation, naming the path.
 */
export function bulkWriteMutation(
  ref: string,
  entries: readonly BulkEntry[],
): Mutation<{ outcomes: BulkOutcome[]; version: string }> {
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }) {
      const outcomes: BulkOutcome[] = []
      const changes: PathChange[] = entries.map((item, i) => ({
        segments: pathSegments(item.path),
        change: async (existing) => {
          if (existing !== undefined && existing.kind !== 'file')
            throw conflict(item.path, existing, 'write a file there')
          const { entry, file } = fileEntry(objects, item.path, item.content, item, existing, now)
          outcomes[i] = { created: existing === undefined, file }
          return entry
        },
      }))
      const result = await editManyAtPaths(objects, root, changes, { createParents: true, now })
      const tally = { chunks: 0, rawBytes: 0, storedBytes: 0 }
      const ops = []
      const seen = new Set<string>()
      const changed: ChangedEntry[] = []
      for (const { path, content } of entries) {
        for (const op of content.ops) ops.push(op)
        tally.chunks += content.newChunks
        tally.rawBytes += content.newRawBytes
        tally.storedBytes += content.newStoredBytes
        if (!seen.has(path)) changed.push({ path, entryType: 'file' })
        seen.add(path)
      }
      return {
        root: result.hash,
        ops,
        tally,
        changes: [entriesChange('entries_created', ref, result.hash, now, changed)],
        result: { outcomes, version: toHex(result.hash) },
      }
    },
  }
}
