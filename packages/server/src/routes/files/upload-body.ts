import { CONTENT_TYPE_RULE, isContentType, MAX_CONTENT_TYPE_LENGTH } from '@svcdb/contract'
import { fileTypeFromBuffer } from 'file-type'
import { ServerError } from '../../errors/server-error'

/** Bytes looked at to guess a content type (file-type's reasonable sample size). */
const SNIFF_BYTES = 4100

/**
 * The content type of an upload: the request's `Content-Type` when given (400
 * `VALIDATION_FAILED` unless it is a valid header value, since it is served back as one),
 * else sniffed from the first bytes with `file-type` (magic numbers), else
 * `application/octet-stream`. The body keeps streaming: only the first few KiB are held while
 * sniffing. A body that ended within them is handed on as those bytes, so a small file
 * reaches the engine as one buffer rather than a stream.
 */
export async function typedUpload(
  body: AsyncIterable<Uint8Array>,
  declared: string | undefined,
): Promise<{ contentType: string; data: Uint8Array | AsyncIterable<Uint8Array> }> {
  if (declared !== undefined && declared.trim() !== '') {
    if (!isContentType(declared)) {
      const message = `must be ${CONTENT_TYPE_RULE}, at most ${MAX_CONTENT_TYPE_LENGTH} characters`
      throw new ServerError('VALIDATION_FAILED', `invalid request: Content-Type ${message}`, {
        details: [{ path: 'headers.content-type', message }],
      })
    }
    return { contentType: declared, data: body }
  }
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
  const found = size === 0 ? undefined : await fileTypeFromBuffer(sample)
  const contentType =
    found?.mime ??
    (looksLikeText(sample) ? 'text/plain; charset=utf-8' : 'application/octet-stream')
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

// One decoder for every call: decode() without `stream` starts afresh each time.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

function looksLikeText(sample: Uint8Array): boolean {
  if (sample.length === 0) return false
  for (const byte of sample.subarray(0, 1024)) if (byte === 0) return false
  try {
    strictUtf8.decode(sample.subarray(0, Math.min(sample.length, 1024)))
    return true
  } catch {
    // A multi-byte character cut at the sample's end is still text.
    return sample.length >= 1024
  }
}
