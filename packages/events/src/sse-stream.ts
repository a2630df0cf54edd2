import { systemClock } from './clock'
import type { CancelTimer, Clock } from './clock'
import type { EventEnvelope } from './event-types'
import { encodeSseComment, encodeSseMessage } from './sse/encode-sse'
import type { SseMessage } from './sse/encode-sse'

/** Where an SSE stream takes its items from; a bus {@link Subscription} or a channel subscription. */
export interface SseSource<T> {
  /** Resolves with the next items, or with an empty array once the source is finished. */
  take(max?: number): Promise<readonly T[]>
  /** Releases the source; called when the stream ends for any reason. */
  close(): void
}

/** Options of {@link createSseStream}. */
export interface SseStreamOptions<T> {
  source: SseSource<T>
  /**
   * Turns an item into a message, e.g. {@link envelopeToSseMessage}. It must depend on the item
   * alone: frames of object items are cached per (encode, item), so define it once and share it
   * between streams.
   */
  encode: (item: T) => SseMessage
  /** Drives the keepalive; the system clock by default. */
  clock?: Clock
  /** Interval of the `: ping` keepalive comment; default 30,000 ms. */
  pingIntervalMs?: number
  /** When set, sent first as `retry:` so clients reconnect after this many ms. */
  retryMs?: number
  /** Ends the stream cleanly when aborted (e.g. server shutdown). */
  signal?: AbortSignal
  /** Most items encoded into one chunk; default 256. */
  batchSize?: number
}

/** Response headers for an SSE stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // Asks reverse proxies such as nginx not to buffer the stream.
  'x-accel-buffering': 'no',
}

const DEFAULT_PING_INTERVAL_MS = 30_000
const DEFAULT_BATCH_SIZE = 256
const PING = new TextEncoder().encode(encodeSseComment('ping'))

// Frames cached per encode function and item: an event fanned out to a thousand streams is
// serialised and encoded once. Entries live as long as the item does.
const frameCaches = new WeakMap<object, WeakMap<object, Uint8Array>>()

const frameCacheFor = (encode: object) => {
  let cache = frameCaches.get(encode)
  if (cache === undefined) frameCaches.set(encode, (cache = new WeakMap()))
  return cache
}

// Always a fresh buffer: cached frames are shared and a reader may keep or change its chunk.
const concat = (frames: Uint8Array[]) => {
  let length = 0
  for (const frame of frames) length += frame.byteLength
  const out = new Uint8Array(length)
  let offset = 0
  for (const frame of frames) {
    out.set(frame, offset)
    offset += frame.byteLength
  }
  return out
}

/**
 * The SSE message of an event: `id` = `event_id`, `event` = `event_type`, `data` = the JSON
 * envelope.
 */
export function envelopeToSseMessage(envelope: EventEnvelope): SseMessage {
  return { id: envelope.event_id, event: envelope.event_type, data: JSON.stringify(envelope) }
}

/**
 * Turns a source into a `text/event-stream` body: framework-neutral, it is a plain
 * `ReadableStream<Uint8Array>` to return as a `Response` body (Hono, fetch handlers) or to pipe
 * into a Node response. It pulls from the source only as fast as the reader reads, so a slow
 * client backs up into its bounded subscription queue rather than into memory; a `: ping`
 * comment goes out every `pingIntervalMs` (skipped while the reader is stalled). Cancelling the
 * stream or aborting `signal` closes the source and ends the stream.
 *
 * @example
 * const sub = bus.subscribe({ lastEventId: req.headers.get('last-event-id') })
 * const body = createSseStream({ source: sub, encode: envelopeToSseMessage, signal: req.signal })
 * return new Response(body, { headers: SSE_HEADERS })
 */
export function createSseStream<T>(options: SseStreamOptions<T>): ReadableStream<Uint8Array> {
  const { source, encode, signal } = options
  const clock = options.clock ?? systemClock
  const pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  if (!(pingIntervalMs > 0))
    throw new RangeError(`pingIntervalMs must be positive, got ${pingIntervalMs}`)
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`)
  const retryMs = options.retryMs
  if (retryMs !== undefined && (!Number.isSafeInteger(retryMs) || retryMs < 0))
    throw new RangeError(`retryMs must be a non-negative integer, got ${retryMs}`)
  const text = new TextEncoder()
  const cache = frameCacheFor(encode)
  const frame = (item: T): Uint8Array => {
    const key = typeof item === 'object' && item !== null ? item : undefined
    let bytes = key === undefined ? undefined : cache.get(key)
    if (bytes === undefined) {
      bytes = text.encode(encodeSseMessage(encode(item)))
      if (key !== undefined) cache.set(key, bytes)
    }
    return bytes
  }
  let cancelTimer: CancelTimer | undefined
  let finished = false
  let onAbort: (() => void) | undefined

  const finish = () => {
    if (finished) return false
    finished = true
    cancelTimer?.()
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
    source.close()
    return true
  }

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (retryMs !== undefined) controller.enqueue(text.encode(`retry: ${retryMs}\n\n`))
        const ping = () => {
          if (finished) return
          if ((controller.desiredSize ?? 0) > 0) controller.enqueue(PING)
          cancelTimer = clock.setTimer(ping, pingIntervalMs)
        }
        cancelTimer = clock.setTimer(ping, pingIntervalMs)
        onAbort = () => {
          if (finish()) controller.close()
        }
        if (signal?.aborted === true) onAbort()
        else signal?.addEventListener('abort', onAbort, { once: true })
      },
      async pull(controller) {
        if (finished) return
        let items: readonly T[]
        try {
          items = await source.take(batchSize)
        } catch (err) {
          if (finish()) controller.error(err)
          return
        }
        if (finished) return
        if (items.length === 0) {
          if (finish()) controller.close()
          return
        }
        let chunk: Uint8Array
        try {
          chunk = concat(items.map(frame))
        } catch (err) {
          if (finish()) controller.error(err)
          return
        }
        controller.enqueue(chunk)
      },
      cancel() {
        finish()
      },
    },
    { highWaterMark: 1 },
  )
}
