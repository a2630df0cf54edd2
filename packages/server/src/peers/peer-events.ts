import { decodeSseStream } from '@svcdb/events/sse'
import type { PeerHttp } from './peer-http'

/** An event of the peer's stream, as far as replication reads it. */
export interface PeerEvent {
  id: string
  type: string
  payload: Record<string, unknown>
  /** When it arrived here (local clock). */
  receivedAt: number
}

/** Options of {@link followPeerEvents}. */
export interface FollowOptions {
  signal: AbortSignal
  /**
   * The stream is open (again); `resumed` when it was asked to replay from `Last-Event-ID`,
   * so what arrives first may be old events in a burst rather than live ones.
   */
  onOpen(resumed: boolean): void
  onEvent(event: PeerEvent): void
  /** The stream ended or could not be opened; a reconnect follows unless aborted. */
  onDrop(err: unknown): void
  /** First and smallest wait before reconnecting; default 500 ms. */
  minBackoffMs?: number
  /** Largest wait before reconnecting; default 30 s. */
  maxBackoffMs?: number
  /**
   * Most bytes one event may take (from the blank line ending the one before); default
   * 1 MiB. A longer one drops the stream, as a hostile or broken peer's endless line would
   * otherwise grow without bound here.
   */
  maxEventBytes?: number
  now?: () => number
}

/**
 * Follows the peer's `/system/events` until `signal` aborts, reconnecting after every drop
 * with exponential backoff and full jitter (so many followers of one restarted peer do not
 * come back in step), resuming with `Last-Event-ID` so the peer replays what the gap missed.
 * The wait resets once a stream delivered an event.
 */
export async function followPeerEvents(http: PeerHttp, options: FollowOptions): Promise<void> {
  const min = options.minBackoffMs ?? 500
  const max = options.maxBackoffMs ?? 30_000
  const now = options.now ?? Date.now
  const maxEventBytes = options.maxEventBytes ?? 1024 * 1024
  let lastId = ''
  let attempt = 0
  while (!options.signal.aborted) {
    let delivered = false
    try {
      const response = await http.request('GET', '/system/events', {
        signal: options.signal,
        headers: {
          accept: 'text/event-stream',
          ...(lastId === '' ? {} : { 'last-event-id': lastId }),
        },
      })
      if (response.body === null) throw new Error('the event stream has no body')
      options.onOpen(lastId !== '')
      const bounded = response.body.pipeThrough(eventSizeGuard(maxEventBytes))
      for await (const message of decodeSseStream(bounded)) {
        const event = parseEvent(message.data, message.id, now())
        if (event === undefined) continue
        delivered = true
        if (event.id !== '') lastId = event.id
        options.onEvent(event)
      }
      options.onDrop(new Error('the peer closed its event stream'))
    } catch (err) {
      if (options.signal.aborted) return
      options.onDrop(err)
    }
    attempt = delivered ? 1 : attempt + 1
    const ceiling = Math.min(max, min * 2 ** Math.min(attempt - 1, 16))
    await sleep(min / 2 + Math.random() * ceiling, options.signal)
  }
}

/**
 * Passes the stream on while no event grows past `limit` bytes, counted from the last blank
 * line (`\n\n`, or `\r\n\r\n`: a CR is not counted as a line break); errors it otherwise.
 */
function eventSizeGuard(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let pending = 0
  let afterLineFeed = false
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        if (byte === 0x0d) continue
        if (byte === 0x0a) {
          if (afterLineFeed) pending = 0
          afterLineFeed = true
          continue
        }
        afterLineFeed = false
        if (++pending > limit) {
          controller.error(new Error(`the peer sent an event longer than ${limit} bytes`))
          return
        }
      }
      controller.enqueue(chunk)
    },
  })
}

function parseEvent(data: string, id: string, receivedAt: number): PeerEvent | undefined {
  try {
    const envelope = JSON.parse(data) as {
      event_id?: unknown
      event_type?: unknown
      payload?: unknown
    }
    if (typeof envelope.event_type !== 'string') return undefined
    const payload =
      typeof envelope.payload === 'object' && envelope.payload !== null
        ? (envelope.payload as Record<string, unknown>)
        : {}
    const eventId = typeof envelope.event_id === 'string' ? envelope.event_id : id
    return { id: eventId, type: envelope.event_type, payload, receivedAt }
  } catch {
    return undefined
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
