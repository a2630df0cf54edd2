/** One event dispatched by the decoder. */
export interface DecodedSseEvent {
  /** The event type; `message` when the frame named none. */
  readonly event: string
  /** The data lines joined by `\n`. */
  readonly data: string
  /** The last event id seen on the stream so far (ids persist across events), or `''`. */
  readonly id: string
}

/** Options of {@link createSseDecoder}. */
export interface SseDecoderOptions {
  /** Called with each valid `retry:` value (ms). */
  onRetry?: (ms: number) => void
  /** Called with the text of each comment line (`: ping` gives `ping`). */
  onComment?: (text: string) => void
}

/** An incremental SSE decoder: feed it chunks as they arrive, in any sizes. */
export interface SseDecoder {
  /** Decodes a chunk (bytes of UTF-8, or text) and returns the events it completed. */
  push(chunk: Uint8Array | string): DecodedSseEvent[]
  /**
   * Ends the stream: an event without its closing blank line is discarded, per the standard.
   * The decoder can then read a new stream (a reconnection); `lastEventId` and `retry` persist.
   */
  end(): void
  /** The last event id seen, to send as `Last-Event-ID` when reconnecting. */
  readonly lastEventId: string
  /** The latest `retry:` value, if any. */
  readonly retry: number | undefined
}

/**
 * Creates a decoder following the WHATWG event-stream rules: LF, CR and CRLF line ends (also
 * split across chunks), a leading BOM, comments, fields without a colon, one optional space
 * after the colon, ids with NUL ignored, and a non-numeric `retry` ignored. Runs in browsers.
 *
 * @example
 * const decoder = createSseDecoder()
 * decoder.push('id: 1\nevent: ping\ndata: {}\n\n') // [{ event: 'ping', data: '{}', id: '1' }]
 */
export function createSseDecoder(options: SseDecoderOptions = {}): SseDecoder {
  const text = new TextDecoder('utf-8', { ignoreBOM: true })
  let started = false
  let partial: string[] = []
  let afterCR = false
  let data = ''
  let hasData = false
  let eventType = ''
  let idBuffer = ''
  let lastEventId = ''
  let retry: number | undefined

  const processLine = (line: string, out: DecodedSseEvent[]) => {
    if (line === '') {
      lastEventId = idBuffer
      if (hasData)
        out.push({ event: eventType === '' ? 'message' : eventType, data, id: lastEventId })
      data = ''
      hasData = false
      eventType = ''
      return
    }
    const colon = line.indexOf(':')
    if (colon === 0) {
      options.onComment?.(line.slice(line.charCodeAt(1) === 32 ? 2 : 1))
      return
    }
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    switch (field) {
      case 'event':
        eventType = value
        break
      case 'data':
        data = hasData ? `${data}\n${value}` : value
        hasData = true
        break
      case 'id':
        if (!value.includes('\0')) idBuffer = value
        break
      case 'retry':
        if (/^[0-9]+$/.test(value)) {
          retry = Number(value)
          options.onRetry?.(retry)
        }
        break
      default:
        break
    }
  }

  const pushText = (chunk: string): DecodedSseEvent[] => {
    const out: DecodedSseEvent[] = []
    if (chunk === '') return out
    let start = 0
    if (!started) {
      started = true
      if (chunk.charCodeAt(0) === 0xfeff) start = 1
    }
    if (afterCR && chunk.charCodeAt(start) === 10) start++
    afterCR = false
    for (let i = start; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i)
      if (code !== 10 && code !== 13) continue
      partial.push(chunk.slice(start, i))
      processLine(partial.join(''), out)
      partial = []
      if (code === 13) {
        if (i + 1 === chunk.length) afterCR = true
        else if (chunk.charCodeAt(i + 1) === 10) i++
      }
      start = i + 1
    }
    if (start < chunk.length) partial.push(chunk.slice(start))
    return out
  }

  return {
    push(chunk) {
      return pushText(typeof chunk === 'string' ? chunk : text.decode(chunk, { stream: true }))
    },
    end() {
      text.decode()
      started = false
      partial = []
      afterCR = false
      data = ''
      hasData = false
      eventType = ''
      // An id of the unfinished event never counts; the committed one carries over.
      idBuffer = lastEventId
    },
    get lastEventId() {
      return lastEventId
    },
    get retry() {
      return retry
    },
  }
}
