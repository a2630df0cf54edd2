import { describe, expect, it } from 'vitest'
import { decodeSseStream } from './decode-sse-stream'

const streamOf = (chunks: string[], onCancel?: () => void) => {
  const encoder = new TextEncoder()
  let index = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++]
      if (chunk === undefined) controller.close()
      else controller.enqueue(encoder.encode(chunk))
    },
    cancel: () => onCancel?.(),
  })
}

describe('decodeSseStream', () => {
  it('yields the events of a byte stream', async () => {
    const events = []
    for await (const event of decodeSseStream(
      streamOf(['id: 1\nda', 'ta: x\n\n: ping\n\n', 'data: y\n\ndata: cut']),
    ))
      events.push(event)
    expect(events).toEqual([
      { event: 'message', data: 'x', id: '1' },
      { event: 'message', data: 'y', id: '1' },
    ])
  })

  it('cancels the stream when the loop is left early', async () => {
    let cancelled = false
    const stream = streamOf(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'], () => (cancelled = true))
    for await (const event of decodeSseStream(stream)) if (event.data === '1') break
    expect(cancelled).toBe(true)
    expect(stream.locked).toBe(false)
  })
})
