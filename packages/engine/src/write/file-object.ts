import type { WriteSet } from '../objects/object-store'
import type { ChunkListRef, DirEntry, FileObject } from '../objects/tree-objects'
import { baseName } from '../path/db-path'
import type { Ingested } from './ingest'

/** Files with more chunks than this keep their chunk list in indirect list objects. */
export const INLINE_CHUNKS = 1024

/** Builds (and stages) the file object of ingested content, splitting long chunk lists. */
export function buildFileObject(
  objects: WriteSet,
  content: Ingested,
  fields: { contentType: string; metadata: string; createdAt: number; updatedAt: number },
): FileObject {
  const base = {
    type: 'file' as const,
    size: content.size,
    contentHash: content.contentHash,
    ...fields,
  }
  if (content.chunks.length <= INLINE_CHUNKS) return { ...base, chunks: content.chunks }
  const lists: ChunkListRef[] = []
  for (let i = 0; i < content.chunks.length; i += INLINE_CHUNKS) {
    const slice = content.chunks.slice(i, i + INLINE_CHUNKS)
    const hash = objects.put({ type: 'list', chunks: slice })
    lists.push({ hash, chunks: slice.length, bytes: slice.reduce((sum, c) => sum + c.size, 0) })
  }
  return { ...base, lists }
}

/**
 * The file object and directory entry of content written at `path` over `existing` (its
 * creation time is kept across replacements): what a single and a bulk write both store.
 */
export function fileEntry(
  objects: WriteSet,
  path: string,
  content: Ingested,
  fields: { contentType: string; metadata: string },
  existing: DirEntry | undefined,
  now: number,
): { entry: DirEntry; file: FileObject } {
  const createdAt = existing?.createdAt ?? now
  const file = buildFileObject(objects, content, { ...fields, createdAt, updatedAt: now })
  const entry: DirEntry = {
    name: baseName(path),
    kind: 'file',
    hash: objects.put(file),
    size: content.size,
    createdAt,
    updatedAt: now,
    files: 0,
    dirs: 0,
    links: 0,
  }
  return { entry, file }
}
