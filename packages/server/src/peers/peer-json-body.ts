import * as v from 'valibot'
import { PeerError } from './peer-error'

/** The most bytes of one JSON answer of a peer read here: a page, a stat, a whoami. */
export const PEER_JSON_LIMIT = 16 * 1024 * 1024

/**
 * A peer's JSON answer parsed by `schema`, read with a byte limit: a body over `limit` bytes
 * is cancelled there (`PEER_ANSWER_TOO_LARGE`) instead of being buffered whole, and a body
 * that is not JSON of the schema's form fails with `INVALID_ARCHIVE`.
 */
export async function readPeerJson<T>(
  peer: string,
  schema: v.GenericSchema<unknown, T>,
  response: Response,
  limit: number = PEER_JSON_LIMIT,
): Promise<T> {
  const where = `${new URL(response.url || 'http://peer/').pathname}`
  const text = await boundedText(response, limit, () => {
    return new PeerError(
      'PEER_ANSWER_TOO_LARGE',
      `peer ${peer} answered ${where} with more than ${limit} bytes of JSON`,
    )
  })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const parsed = v.safeParse(schema, value)
  if (!parsed.success)
    throw new PeerError('INVALID_ARCHIVE', `peer ${peer} answered ${where} in an unknown form`)
  return parsed.output
}

async function boundedText(
  response: Response,
  limit: number,
  tooLarge: () => PeerError,
): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let seen = 0
  let text = ''
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      seen += next.value.length
      if (seen > limit) throw tooLarge()
      text += decoder.decode(next.value, { stream: true })
    }
    done = true
    return text + decoder.decode()
  } finally {
    if (!done) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}
