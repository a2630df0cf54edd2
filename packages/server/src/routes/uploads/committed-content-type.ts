import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import {
  needsBytes,
  resolveContentType,
  SNIFF_BYTES,
} from '../../content-types/content-type-resolver'

/**
 * The content type of a file committed from uploaded chunks: the `content_type` the caller
 * gave (the API's own field, kept as given), else the one rule of every write path
 * (`resolveContentType`): the name, then the first chunk's first bytes when the name says
 * nothing (read only then, and only from chunks the caller was checked to hold), else
 * `application/octet-stream`.
 */
export async function committedContentType(
  db: Database,
  path: string,
  file: { content_type?: string | undefined; chunks: readonly { hash: string }[] },
): Promise<string> {
  if (file.content_type !== undefined) return file.content_type
  const first = file.chunks[0]
  const head =
    first !== undefined && needsBytes(path) ? await firstBytes(db, first.hash) : undefined
  return resolveContentType({ path, head })
}

// A chunk that is not stored (or a malformed id) is the commit's own error to report, with
// its own status: the content type is then decided without the bytes.
async function firstBytes(db: Database, hash: string): Promise<Uint8Array | undefined> {
  try {
    return (await db.readChunk(hash)).subarray(0, SNIFF_BYTES)
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'INVALID_HASH')) return undefined
    throw err
  }
}
