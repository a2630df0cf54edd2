import { describe, expect, it } from 'vitest'
import { createEventBus } from './event-bus'
import { createSseDecoder } from './sse/sse-decoder'
import { createSseStream, envelopeToSseMessage, SSE_HEADERS } from './sse-stream'
import { createFakeClock } from './testing/fake-clock'

const setup = (
  options: { pingIntervalMs?: number; retryMs?: number; signal?: AbortSignal } = {},
) => {
  const clock = createFakeClock(1_000)
  const bus = createEventBus({ clock, bootId: 'boot' })
  const sub = bus.subscribe()
  const stream = createSseStream({ source: sub, encode: envelopeToSseMessage, clock, ...options })
  const reader = stream.getReader()
  const comments: string[] = []
  const retries: number[] = []
  const decoder = createSseDecoder({
    onComment: (text) => comments.push(text),
    onRetry: (ms) => retries.push(ms),
  })
  const read = async () => {
    const { done, value } = await reader.read()
    return done ? 'done' : decoder.push(value)
  }
  return { clock, bus, sub, reader, read, comments, retries }
}

describe('createSseStream', () => {
  it('writes each event as id, event and the JSON envelope', async () => {
    const { bus, read } = setup()
    const envelope = bus.publish('indexes_changed', { path: '/docs' })
    expect(await read()).toEqual([
      { id: 'boot-1', event: 'indexes_changed', data: JSON.stringify(envelope) },
    ])
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({
      event_id: 'boot-1',
      event_type: 'indexes_changed',
      timestamp: 1_000,
      payload: { path: '/docs' },
    })
  })

  it('batches events published together into one chunk', async () => {
    const { bus, read } = setup()
    for (let i = 0; i < 3; i++) bus.publish('permissions_changed', { path: `/p${i}` })
    const events = await read()
    expect(events !== 'done' && events.map((e) => e.id)).toEqual(['boot-1', 'boot-2', 'boot-3'])
  })

  it('sends a ping comment every 30 s by default', async () => {
    const { clock, read, comments } = setup()
    const next = read()
    await clock.advance(29_999)
    expect(comments).toEqual([])
    await clock.advance(1)
    expect(await next).toEqual([])
    expect(comments).toEqual(['ping'])
    const again = read()
    await clock.advance(30_000)
    await again
    expect(comments).toEqual(['ping', 'ping'])
  })

  it('uses a configured ping interval and sends retry first', async () => {
    const { clock, read, comments, retries } = setup({ pingIntervalMs: 5_000, retryMs: 250 })
    await read()
    expect(retries).toEqual([250])
    const next = read()
    await clock.advance(5_000)
    await next
    expect(comments).toEqual(['ping'])
  })

  it('queues no pings while the reader is stalled', async () => {
    const { clock, bus, read, comments } = setup({ pingIntervalMs: 1_000 })
    await clock.advance(60_000)
    bus.publish('indexes_changed', { path: '/x' })
    const first = await read()
    const second = await read()
    expect(comments).toEqual(['ping'])
    expect(first).toEqual([])
    expect(second !== 'done' && second.map((e) => e.event)).toEqual(['indexes_changed'])
  })

  it('ends cleanly on abort and releases the subscription and the timer', async () => {
    const controller = new AbortController()
    const { bus, read, clock } = setup({ signal: controller.signal })
    const pending = read()
    controller.abort()
    expect(await pending).toBe('done')
    expect(bus.subscriberCount).toBe(0)
    expect(clock.pendingTimers).toBe(0)
  })

  it('releases the subscription when the reader cancels', async () => {
    const { bus, reader, clock } = setup()
    await reader.cancel()
    expect(bus.subscriberCount).toBe(0)
    expect(clock.pendingTimers).toBe(0)
  })

  it('ends when the bus closes', async () => {
    const { bus, read } = setup()
    const pending = read()
    bus.close()
    expect(await pending).toBe('done')
  })

  it('ends at once when the signal is already aborted', async () => {
    const { read } = setup({ signal: AbortSignal.abort() })
    expect(await read()).toBe('done')
  })

  it('fails the stream when an item cannot be encoded', async () => {
    const clock = createFakeClock()
    let closed = false
    const stream = createSseStream({
      source: { take: () => Promise.resolve([1]), close: () => (closed = true) },
      encode: () => ({ id: 'bad\nid', data: '' }),
      clock,
    })
    await expect(stream.getReader().read()).rejects.toThrow(TypeError)
    expect(closed).toBe(true)
  })

  it('encodes an event once for all streams, handing each its own bytes', async () => {
    const clock = createFakeClock()
    const bus = createEventBus({ clock })
    let calls = 0
    const encode = (e: Parameters<typeof envelopeToSseMessage>[0]) => {
      calls++
      return envelopeToSseMessage(e)
    }
    const readers = [1, 2, 3].map(() =>
      createSseStream({ source: bus.subscribe(), encode, clock }).getReader(),
    )
    bus.publish('indexes_changed', { path: '/a' })
    const chunks = await Promise.all(readers.map(async (r) => (await r.read()).value as Uint8Array))
    expect(calls).toBe(1)
    const text = new TextDecoder().decode(chunks[1])
    expect(text).toContain('event: indexes_changed\n')
    ;(chunks[0] as Uint8Array).fill(0)
    expect(new TextDecoder().decode(chunks[1])).toBe(text)
    expect(new TextDecoder().decode(chunks[2])).toBe(text)
  })

  it('refuses bad options and names the SSE headers', () => {
    const source = { take: () => Promise.resolve([]), close: () => undefined }
    const encode = () => ({ data: '' })
    expect(() => createSseStream({ source, encode, pingIntervalMs: 0 })).toThrow(RangeError)
    expect(() => createSseStream({ source, encode, retryMs: -5 })).toThrow(RangeError)
    expect(() => createSseStream({ source, encode, batchSize: 0 })).toThrow(RangeError)
    expect(SSE_HEADERS['content-type']).toMatch(/^text\/event-stream/)
  })
})
