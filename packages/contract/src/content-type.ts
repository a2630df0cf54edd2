import * as v from 'valibot'

/** Longest content type stored with a file, in characters (all ASCII, so also in bytes). */
export const MAX_CONTENT_TYPE_LENGTH = 255

/**
 * An RFC 9110 field-value limited to visible ASCII, with spaces only between characters (no
 * tabs: the engine refuses every control character). Other values may be refused when sent
 * back as a `Content-Type` header.
 */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

/** What a content type must be, for error messages. */
export const CONTENT_TYPE_RULE =
  'a header value of visible ASCII characters, with spaces only between them'

/**
 * True when `value` may be stored as a file's content type and served back as its
 * `Content-Type` header: at most {@link MAX_CONTENT_TYPE_LENGTH} characters of visible ASCII.
 *
 * @example
 * isContentType('text/plain; charset=utf-8') // true
 * isContentType('text/plain\n') // false
 */
export function isContentType(value: string): boolean {
  return value.length <= MAX_CONTENT_TYPE_LENGTH && HEADER_VALUE.test(value)
}

/** A content type a client gives for a file (see {@link isContentType}). */
export const contentTypeSchema = v.pipe(
  v.string(),
  v.maxLength(MAX_CONTENT_TYPE_LENGTH, `must be at most ${MAX_CONTENT_TYPE_LENGTH} characters`),
  v.regex(HEADER_VALUE, `must be ${CONTENT_TYPE_RULE}`),
)
