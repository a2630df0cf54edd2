import type { WriteSet } from '../objects/object-store'
import type { ChunkListRef, FileObject } from '../objects/tree-objects'
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
