import type { Context } from 'hono'
import { ServerError } from '../errors/server-error'
import type { AppEnv } from './app-env'

/** Limit of a request body read with {@link boundedRequestBody} or {@link readRequestBytes}. */
export interface BodyLimit {
  /** Most bytes accepted; one more answers 413 `PAYLOAD_TOO_LARGE`. */
  maxBytes: number
  /** What the body is, for the error message ("a JSON body", "an import"). */
  what: string
}

/** One way of pulling a request's bytes, and of giving up on the rest. */
interface BodySource {
  next(): Promise<IteratorResult<Uint8Array>>
  /** Stops reading without destroying the connection, so the error answer still goes out. */
  stop(): Promise<void>
}

/**
 * The request body as it arrives, counted: past `limit.maxBytes` (whatever `Content-Length`
 * said, or with none) it throws 413 `PAYLOAD_TOO_LARGE` and reads no further. A body left
 * unread (the limit, or a consumer that stops early) keeps the connection open for the
 * answer: @hono/node-server then discards what still comes (at most 64 MiB or 500 ms, never
 * buffered) and closes the connection if the client sends more. Closing at once instead
 * (`Connection: close`) resets the connection while the client still sends, and most clients
 * then lose the answer (RFC 9112 §9.6).
 *
 * @example
 * for await (const part of boundedRequestBody(c, { maxBytes: 1 << 20, what: 'a chunk' })) use(part)
 */
export async function* boundedRequestBody(
  c: Context<AppEnv>,
  limit?: BodyLimit,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (limit !== undefined) refuseDeclaredLength(c, limit)
  const source = bodySource(c)
  let received = 0
  let finished = false
  try {
    for (;;) {
      const next = await source.next()
      if (next.done === true) {
        finished = true
        return
      }
      received += next.value.byteLength
      if (limit !== undefined && received > limit.maxBytes) throw tooLarge(limit)
      yield next.value
    }
  } finally {
    if (!finished) await source.stop()
  }
}

/**
 * The whole request body within `limit`, read as it streams (never more than the limit plus
 * one network buffer in memory).
 */
export async function readRequestBytes(c: Context<AppEnv>, limit: BodyLimit): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const part of boundedRequestBody(c, limit)) parts.push(part)
  return Buffer.concat(parts)
}

/** A declared length above the limit is refused before a byte is read. */
function refuseDeclaredLength(c: Context<AppEnv>, limit: BodyLimit): void {
  const declared = Number(c.req.header('content-length'))
  if (Number.isFinite(declared) && declared > limit.maxBytes) throw tooLarge(limit)
}

function tooLarge(limit: BodyLimit): ServerError {
  return new ServerError('PAYLOAD_TOO_LARGE', `${limit.what} is at most ${limit.maxBytes} bytes`)
}

/**
 * Node's `IncomingMessage` when served by @hono/node-server (fastest, DESIGN §7), else the
 * web stream. A Readable's plain async iterator destroys the stream, and with it the socket,
 * when left early: the client would see a reset instead of the 413, hence `destroyOnReturn`.
 */
function bodySource(c: Context<AppEnv>): BodySource {
  const incoming = (c.env as { incoming?: NodeBody } | undefined)?.incoming
  if (incoming !== undefined && typeof incoming[Symbol.asyncIterator] === 'function') {
    const iterator =
      typeof incoming.iterator === 'function'
        ? incoming.iterator({ destroyOnReturn: false })
        : incoming[Symbol.asyncIterator]()
    return {
      next: () => iterator.next(),
      stop: async () => {
        await iterator.return?.()
      },
    }
  }
  const body = c.req.raw.body
  if (body === null) {
    return {
      next: () => Promise.resolve({ done: true, value: undefined }),
      stop: () => Promise.resolve(),
    }
  }
  const reader = body.getReader()
  return {
    next: async () => {
      const result = await reader.read()
      return result.done ? { done: true, value: undefined } : { done: false, value: result.value }
    },
    stop: () => reader.cancel().catch(() => undefined),
  }
}

/** The parts of Node's `IncomingMessage` used here (kept structural: no `node:` types needed). */
interface NodeBody extends AsyncIterable<Uint8Array> {
  iterator?(options: { destroyOnReturn: boolean }): AsyncIterator<Uint8Array>
}
