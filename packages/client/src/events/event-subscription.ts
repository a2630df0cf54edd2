import { routes } from '@svcdb/contract'
import type { EventEnvelope, EventType } from '@svcdb/events'
import { decodeSseStream } from '@svcdb/events/sse'
import { isClientError } from '../errors'
import { sleep } from '../http/abort'
import type { Transport } from '../http/transport'

/** Options of `events.subscribe`. */
export interface SubscribeOptions {
  /** Event types to receive (default: all). `events_lost` always comes through. */
  events?: readonly EventType[]
  /** Only events about paths under this prefix. */
  pathPrefix?: string
  /** Ends the subscription: the loop over it then finishes without error. */
  signal?: AbortSignal
  /** Resume after this event id (as from a previous subscription). */
  lastEventId?: string
  /**
   * Called each time the server has accepted the stream, on the first connection and after every
   * reconnection: events that happen from then on are delivered. An error it throws ends the
   * subscription.
   */
  onOpen?: () => void
  /** Reconnection delay bounds in ms (default 500 to 30,000), jittered. */
  minDelayMs?: number
  maxDelayMs?: number
}

/** Statuses a reconnection cannot fix. */
const FINAL = new Set([400, 401, 403, 404])

/**
 * The event stream as an async iterable of envelopes, over streaming `fetch` (so the
 * `Authorization` header is sent, which `EventSource` cannot). A dropped connection is
 * reopened with `Last-Event-ID` after a jittered, growing delay; the server then replays what
 * was missed, or sends `events_lost` when it no longer can. Errors a reconnection cannot fix
 * (bad filters, revoked credentials) end the loop with a `ClientError`.
 *
 * @example
 * for await (const event of client.events.subscribe({ events: ['entries_created'], signal }))
 *   console.log(event.event_type, event.payload)
 */
export async function* subscribeEvents(
  t: Transport,
  options: SubscribeOptions = {},
): AsyncGenerator<EventEnvelope> {
  const { signal } = options
  const minDelay = options.minDelayMs ?? 500
  const maxDelay = options.maxDelayMs ?? 30_000
  let lastEventId = options.lastEventId
  let serverRetry: number | undefined
  let failures = 0
  while (signal?.aborted !== true) {
    let body: ReadableStream<Uint8Array> | null = null
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' }
      if (lastEventId !== undefined && lastEventId !== '') headers['last-event-id'] = lastEventId
      const response = await t.send(routes.systemEvents, {
        query: { events: options.events?.join(','), path_prefix: options.pathPrefix },
        headers,
        signal,
      })
      body = response.body
    } catch (err) {
      if (isClientError(err, 'ABORTED')) return
      if (isClientError(err) && FINAL.has(err.status)) throw err
    }
    if (body !== null) {
      try {
        options.onOpen?.()
      } catch (err) {
        await body.cancel().catch(() => undefined)
        throw err
      }
      try {
        for await (const event of decodeSseStream(body, { onRetry: (ms) => (serverRetry = ms) })) {
          if (event.id !== '') lastEventId = event.id
          if (event.data === '') continue
          failures = 0
          yield JSON.parse(event.data) as EventEnvelope
        }
      } catch {
        // A cut connection: reconnect below (or stop, if the caller aborted).
      }
    }
    if (isAborted(signal)) return
    const base = Math.max(minDelay, serverRetry ?? 0)
    const delay = Math.min(maxDelay, base * 2 ** Math.min(failures++, 16))
    try {
      await sleep(delay / 2 + Math.random() * (delay / 2), signal)
    } catch {
      return
    }
  }
}

// A function, so the compiler does not narrow `signal.aborted` across the awaits above.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}
