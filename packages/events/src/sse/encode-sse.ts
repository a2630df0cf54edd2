/** One Server-Sent Events message to send. */
export interface SseMessage {
  /** The `id` field; must not contain a line break or NUL. */
  readonly id?: string
  /** The `event` field (the event type); must not contain a line break. */
  readonly event?: string
  /** The payload; split into one `data:` line per line. */
  readonly data: string
  /** The `retry` field: the client's reconnection delay in ms. */
  readonly retry?: number
}

const LINE_BREAK = /\r\n|\r|\n/

/**
 * Encodes one message as an SSE frame: `id:`, `event:`, `retry:` and `data:` lines and the
 * blank line that dispatches it. Throws `TypeError` for an id or event with a line break.
 *
 * @example
 * encodeSseMessage({ id: 'b-1', event: 'heartbeat', data: '{"node_id":0}' })
 * // 'id: b-1\nevent: heartbeat\ndata: {"node_id":0}\n\n'
 */
export function encodeSseMessage(message: SseMessage): string {
  let frame = ''
  if (message.id !== undefined) {
    if (/[\r\n\0]/.test(message.id))
      throw new TypeError('an SSE id cannot contain a line break or NUL')
    frame += `id: ${message.id}\n`
  }
  if (message.event !== undefined) {
    if (message.event === '' || /[\r\n]/.test(message.event))
      throw new TypeError('an SSE event name must be non-empty without line breaks')
    frame += `event: ${message.event}\n`
  }
  if (message.retry !== undefined) {
    if (!Number.isSafeInteger(message.retry) || message.retry < 0)
      throw new TypeError(`an SSE retry must be a non-negative integer, got ${message.retry}`)
    frame += `retry: ${message.retry}\n`
  }
  for (const line of message.data.split(LINE_BREAK)) frame += `data: ${line}\n`
  return `${frame}\n`
}

/**
 * Encodes a comment, which clients ignore; used for keepalives.
 *
 * @example
 * encodeSseComment('ping') // ': ping\n\n'
 */
export function encodeSseComment(text: string): string {
  return `${text
    .split(LINE_BREAK)
    .map((line) => `: ${line}\n`)
    .join('')}\n`
}
