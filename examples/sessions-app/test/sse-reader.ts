import { decodeSseStream } from '@svcdb/events/sse'
import type { DecodedSseEvent } from '@svcdb/events/sse'

/** An SSE response read with streaming `fetch`, event by event. */
export interface SseReader {
  readonly response: Response
  /** Comment lines seen so far (`: ping` gives `ping`). */
  readonly comments: string[]
  /** The next event; rejects after `timeoutMs` (default 5 s) or when the stream ends first. */
  next(timeoutMs?: number): Promise<DecodedSseEvent>
  /** The next `count` events. */
  take(count: number, timeoutMs?: number): Promise<DecodedSseEvent[]>
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>
  close(): void
}

/** Opens `url` as an event stream; resolves once the response headers have arrived. */
export async function openSse(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseReader> {
  const abort = new AbortController()
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  })
  if (response.body === null) throw new Error(`no body: ${response.status}`)
  const comments: string[] = []
  const queue: DecodedSseEvent[] = []
  let wake: (() => void) | undefined
  let done = false
  const ended = (async () => {
    try {
      for await (const event of decodeSseStream(response.body as ReadableStream<Uint8Array>, {
        onComment: (text) => comments.push(text),
      })) {
        queue.push(event)
        wake?.()
      }
    } catch {
      // Aborted by close().
    } finally {
      done = true
      wake?.()
    }
  })()

  const next = async (timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs
    while (queue.length === 0) {
      if (done) throw new Error('the stream ended')
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = undefined
    }
    return queue.shift() as DecodedSseEvent
  }

  return {
    response,
    comments,
    next,
    async take(count, timeoutMs) {
      const events: DecodedSseEvent[] = []
      while (events.length < count) events.push(await next(timeoutMs))
      return events
    },
    ended,
    close: () => abort.abort(),
  }
}
