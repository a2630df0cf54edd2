import { isContentType } from '@svcdb/contract'

/** What a file with no usable content type is served as. */
const FALLBACK = 'application/octet-stream'

/**
 * The `Content-Type` header a stored file is served with. Writes refuse content types that are
 * not valid header values, but a file stored before that rule (or by a library caller) may
 * still hold one: it is served as `application/octet-stream` rather than failing every read.
 */
export function servedContentType(stored: string | null | undefined): string {
  return typeof stored === 'string' && isContentType(stored) ? stored : FALLBACK
}
