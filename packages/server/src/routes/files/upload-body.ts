import { CONTENT_TYPE_RULE, isContentType, MAX_CONTENT_TYPE_LENGTH } from '@svcdb/contract'
import {
  contentTypeOfName,
  declaredContentType,
  needsBytes,
  resolveContentType,
  SNIFF_BYTES,
} from '../../content-types/content-type-resolver'
import { ServerError } from '../../errors/server-error'

/**
 * The content type of a `PUT /files/{path}` body, by the one rule of every write path
 * (`resolveContentType`): the request's `Content-Type` when it is a real declaration (400
 * `VALIDATION_FAILED` unless it is a valid header value, since it is served back as one; the
 * defaults HTTP tools send unasked do not count), else the file name, else the first bytes,
 * else `application/octet-stream`. The body keeps streaming: the first few KiB are held only
 * when the name says nothing. A body that ended within them is handed on as those bytes, so a
 * small file reaches the engine as one buffer rather than a stream.
 */
export async function typedUpload(
  body: AsyncIterable<Uint8Array>,
  declared: string | undefined,
  path: string,
): Promise<{ contentType: string; data: Uint8Array | AsyncIterable<Uint8Array> }> {
  if (declared !== undefined && declared.trim() !== '' && !isContentType(declared)) {
    const message = `must be ${CONTENT_TYPE_RULE}, at most ${MAX_CONTENT_TYPE_LENGTH} characters`
    throw new ServerError('VALIDATION_FAILED', `invalid request: Content-Type ${message}`, {
      details: [{ path: 'headers.content-type', message }],
    })
  }
  const given = declaredContentType(declared)
  if (given !== undefined) return { contentType: given, data: body }
  const byName = needsBytes(path) ? undefined : contentTypeOfName(path)
  if (byName !== undefined) return { contentType: byName, data: body }
  const iterator = body[Symbol.asyncIterator]()
  const head: Uint8Array[] = []
  let size = 0
  let done = false
  while (size < SNIFF_BYTES) {
    const next = await iterator.next()
    if (next.done === true) {
      done = true
      break
    }
    head.push(next.value)
    size += next.value.length
  }
  const sample = head.length === 1 ? (head[0] as Uint8Array) : Buffer.concat(head)
  const contentType = await resolveContentType({ path, head: sample })
  if (done) return { contentType, data: sample }
  async function* data(): AsyncGenerator<Uint8Array> {
    yield* head
    for (;;) {
      const next = await iterator.next()
      if (next.done === true) return
      yield next.value
    }
  }
  return { contentType, data: data() }
}
