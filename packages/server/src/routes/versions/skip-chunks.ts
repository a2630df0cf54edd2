import type { Context } from 'hono'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'
import { requestBody } from './request-body'

/** Bytes of one chunk id in an export's or patch's body. */
export const CHUNK_ID_BYTES = 32

/** Most ids one export or patch may be asked to leave out: 32 MiB of them. */
export const MAX_SKIPPED_CHUNKS = 1024 * 1024

/**
 * The chunk ids an export or patch request names in an `application/octet-stream` body (raw,
 * 32 bytes each: chunks the caller holds, which the archive leaves out), or undefined. Any
 * other body is ignored, as the spec's export and diff take none. A body that is not whole
 * ids answers 400; more than {@link MAX_SKIPPED_CHUNKS} of them, 413.
 */
export async function skippedChunks(c: Context<AppEnv>): Promise<Iterable<Uint8Array> | undefined> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/octet-stream') return undefined
  const parts: Uint8Array[] = []
  let size = 0
  const limit = { maxBytes: MAX_SKIPPED_CHUNKS * CHUNK_ID_BYTES, what: 'a list of chunk ids' }
  for await (const part of requestBody(c, limit)) {
    parts.push(part)
    size += part.length
  }
  if (size === 0) return undefined
  if (size % CHUNK_ID_BYTES !== 0) {
    throw new ServerError(
      'BAD_REQUEST',
      `the body names chunks to leave out: raw ${CHUNK_ID_BYTES}-byte ids, but it holds ${size} bytes`,
    )
  }
  return idsOf(Buffer.concat(parts, size))
}

/** The ids in `all`, one view at a time: a million of them are not kept as objects. */
function* idsOf(all: Buffer): Generator<Uint8Array> {
  for (let at = 0; at < all.length; at += CHUNK_ID_BYTES)
    yield all.subarray(at, at + CHUNK_ID_BYTES)
}
