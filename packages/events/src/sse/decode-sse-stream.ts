import { createSseDecoder } from './sse-decoder'
import type { DecodedSseEvent, SseDecoderOptions } from './sse-decoder'

/**
 * Reads an SSE byte stream (e.g. a `fetch` response body) as an async iterable of events.
 * Leaving the loop early cancels the stream.
 *
 * @example
 * const res = await fetch(url, { headers: { accept: 'text/event-stream' } })
 * for await (const event of decodeSseStream(res.body!)) console.log(event.event, event.data)
 */
export async function* decodeSseStream(
  stream: ReadableStream<Uint8Array>,
  options: SseDecoderOptions = {},
): AsyncGenerator<DecodedSseEvent, void, undefined> {
  const decoder = createSseDecoder(options)
  const reader = stream.getReader()
  let finished = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) {
        finished = true
        decoder.end()
        return
      }
      yield* decoder.push(value)
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}
