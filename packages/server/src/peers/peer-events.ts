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
  /** The stream is open (again). */
  onOpen(): void
  onEvent(event: PeerEvent): void
  /** The stream ended or could not be opened; a reconnect follows unless aborted. */
  onDrop(err: unknown): void
  /** First and smallest wait before reconnecting; default 500 ms. */
  minBackoffMs?: number
  /** Largest wait before reconnecting; default 30 s. */
  maxBackoffMs?: number
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
      options.onOpen()
      for await (const message of decodeSseStream(response.body)) {
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
