import { peerKeyVariable } from '../config/peer-flags'
import type { PeerConfig } from '../config/peer-flags'
import { PeerError } from './peer-error'

/** Requests to one peer, authenticated with its key. */
export interface PeerHttp {
  /**
   * Sends a request and resolves with a 2xx response (its body unread). Any other answer
   * throws a `PeerError` with the peer's error code and message; no answer throws
   * `UNREACHABLE`. The key never appears in a message.
   */
  request(
    method: 'GET' | 'POST',
    path: string,
    options?: { signal?: AbortSignal; headers?: Record<string, string>; body?: Uint8Array },
  ): Promise<Response>
}

/** Requests for `peer` through `fetchImpl` (the global fetch by default). */
export function createPeerHttp(peer: PeerConfig, fetchImpl: typeof fetch = fetch): PeerHttp {
  const auth: Record<string, string> =
    peer.key === undefined ? {} : { authorization: `Bearer ${peer.key}` }
  return {
    async request(method, path, options = {}) {
      let response: Response
      try {
        response = await fetchImpl(peer.url + path, {
          method,
          headers: { ...options.headers, ...auth },
          // A redirect would carry the key to wherever the peer (or its proxy) points: a 3xx
          // is answered as it is, and refused below like any answer that is not 2xx.
          // (With `redirect: 'error'` the kill -9 e2e test hangs after the restart, cause not
          // found yet: `manual` keeps the same guarantee.)
          redirect: 'manual',
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.body === undefined ? {} : { body: options.body as Uint8Array<ArrayBuffer> }),
        })
      } catch (err) {
        if (options.signal?.aborted === true) throw err
        const cause = (err as { cause?: { code?: string; message?: string } }).cause
        const why = cause?.code ?? cause?.message ?? (err as Error).message
        throw new PeerError('UNREACHABLE', `peer ${peer.name} did not answer (${why})`, undefined, {
          cause: err,
        })
      }
      if (response.ok) return response
      throw await answeredError(peer, method, path, response)
    },
  }
}

/** The most of an error answer read: a hostile peer's endless body is not ours to hold. */
const MAX_ERROR_BODY = 64 * 1024

async function answeredError(
  peer: PeerConfig,
  method: string,
  path: string,
  response: Response,
): Promise<PeerError> {
  const where = `${method} ${path.split('?')[0]}`
  let code = `HTTP_${response.status}`
  let detail = response.statusText
  try {
    const text = await readAtMost(response, MAX_ERROR_BODY)
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }
    if (typeof body.error?.code === 'string') code = body.error.code
    if (typeof body.error?.message === 'string') detail = body.error.message
  } catch {
    // Not our JSON error body (a proxy's page): the status says enough.
  }
  const hint =
    response.status === 401
      ? ` (set the peer's API key in ${peerKeyVariable(peer.name)})`
      : response.status === 403
        ? ' (replicating the whole database needs a root key of the peer)'
        : ''
  return new PeerError(
    code,
    `peer ${peer.name} answered ${response.status} to ${where}: ${detail}${hint}`,
    response.status,
  )
}

/** The first `limit` bytes of `response`'s body as text; the rest is never read. */
async function readAtMost(response: Response, limit: number): Promise<string> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  try {
    while (size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      parts.push(value.subarray(0, limit - size))
      size += Math.min(value.length, limit - size)
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return new TextDecoder().decode(Buffer.concat(parts))
}
