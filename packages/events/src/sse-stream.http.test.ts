import { once } from 'node:events'
import { connect } from 'node:net'
import { createServer } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventSource } from 'eventsource'
import { afterEach, describe, expect, it } from 'vitest'
import { createEventBus } from './event-bus'
import type { EventBus } from './event-bus'
import type { Subscription } from './subscription'
import type { EventEnvelope, EventType } from './event-types'
import { parseEventsParam } from './events-param'
import { createSseStream, envelopeToSseMessage, SSE_HEADERS } from './sse-stream'
import { createFakeClock } from './testing/fake-clock'

/** A minimal event-stream endpoint on loopback, the way a server would wire the library. */
const serve = async (bus: EventBus) => {
  const responses = new Set<ServerResponse>()
  const seenLastEventIds: (string | undefined)[] = []
  const subscriptions: Subscription[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const lastEventId = req.headers['last-event-id']
    seenLastEventIds.push(typeof lastEventId === 'string' ? lastEventId : undefined)
    const sub = bus.subscribe({
      events: parseEventsParam(url.searchParams.get('events')),
      pathPrefix: url.searchParams.get('path_prefix') ?? undefined,
      lastEventId: typeof lastEventId === 'string' ? lastEventId : null,
      queueSize: 200,
    })
    subscriptions.push(sub)
    const abort = new AbortController()
    const stream = createSseStream({
      source: sub,
      encode: envelopeToSseMessage,
      clock: createFakeClock(),
      retryMs: 30,
      signal: abort.signal,
    })
    res.writeHead(200, SSE_HEADERS)
    res.flushHeaders()
    responses.add(res)
    res.on('close', () => {
      responses.delete(res)
      abort.abort()
    })
    void (async () => {
      const reader = stream.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done || res.destroyed) break
        if (!res.write(value)) await once(res, 'drain')
      }
      res.end()
    })()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/system/events`,
    seenLastEventIds,
    subscriptions,
    get connections() {
      return responses.size
    },
    dropConnections: () => {
      for (const res of responses) res.destroy()
    },
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

const collect = (source: EventSource, types: EventType[]) => {
  const received: { id: string; type: string; envelope: EventEnvelope }[] = []
  for (const type of types)
    source.addEventListener(type, (event) => {
      received.push({ id: event.lastEventId, type: event.type, envelope: JSON.parse(event.data) })
    })
  return received
}

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 5_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const open = async (url: string) => {
  const source = new EventSource(url)
  cleanups.push(() => source.close())
  await new Promise<void>((resolve, reject) => {
    source.onopen = () => resolve()
    source.onerror = (err) => reject(new Error(`could not connect: ${err.message ?? ''}`))
  })
  source.onerror = null
  return source
}

describe('SSE over HTTP with the eventsource client', () => {
  it('delivers events with id, type and the JSON envelope, filtered by query', async () => {
    const bus = createEventBus({ bootId: 'boot' })
    const server = await serve(bus)
    cleanups.push(server.close)
    const source = await open(
      `${server.url}?events=entries_created,indexes_changed&path_prefix=/docs/`,
    )
    const received = collect(source, ['entries_created', 'entries_deleted', 'indexes_changed'])

    bus.publish('entries_created', { entries: [{ path: '/docs/a.txt', entry_type: 'file' }] })
    bus.publish('entries_deleted', { entries: [{ path: '/docs/a.txt' }] }) // type filtered out
    bus.publish('entries_created', { entries: [{ path: '/elsewhere/b' }] }) // prefix filtered out
    const last = bus.publish('indexes_changed', { path: '/docs/.svcdb/indexes.json' })
    await until(() => received.length === 2, 'two events')

    expect(received.map((r) => [r.id, r.type])).toEqual([
      ['boot-1', 'entries_created'],
      ['boot-4', 'indexes_changed'],
    ])
    expect(received[1]?.envelope).toEqual(last)
    expect(received[0]?.envelope.event_id).toBe(received[0]?.id)
  })

  it('resumes with Last-Event-ID after the connection drops, without gaps or repeats', async () => {
    const bus = createEventBus({ bootId: 'boot' })
    const server = await serve(bus)
    cleanups.push(server.close)
    const source = await open(server.url)
    const received = collect(source, ['permissions_changed'])
    const publish = (n: number) => bus.publish('permissions_changed', { path: `/p${n}` })

    publish(1)
    publish(2)
    await until(() => received.length === 2, 'the first events')
    server.dropConnections()
    for (let n = 3; n <= 6; n++) publish(n) // published while the client reconnects
    await until(() => server.seenLastEventIds.length === 2, 'a reconnection')
    publish(7)
    await until(() => received.length === 7, 'replayed and live events')

    expect(server.seenLastEventIds).toEqual([undefined, 'boot-2'])
    expect(received.map((r) => r.id)).toEqual([
      'boot-1',
      'boot-2',
      'boot-3',
      'boot-4',
      'boot-5',
      'boot-6',
      'boot-7',
    ])
  })

  it('tells a client that reconnects too late that events were lost', async () => {
    const bus = createEventBus({ bootId: 'boot', replaySize: 2 })
    const server = await serve(bus)
    cleanups.push(server.close)
    const source = await open(server.url)
    const received = collect(source, ['versions_created', 'events_lost'])
    const snapshot = (name: string) =>
      bus.publish('versions_created', {
        kind: 'snapshot',
        name,
        version: 'ab'.repeat(32),
        created_at: 0,
      })

    snapshot('s1')
    await until(() => received.length === 1, 'the first event')
    server.dropConnections()
    for (let n = 2; n <= 6; n++) snapshot(`s${n}`)
    await until(() => received.length === 2, 'the events_lost notice')
    snapshot('s7')
    await until(() => received.length === 3, 'the next live event')

    expect(received.map((r) => r.type)).toEqual([
      'versions_created',
      'events_lost',
      'versions_created',
    ])
    expect(received[1]?.envelope.payload).toEqual({ last_event_id: 'boot-1', reason: 'expired' })
    expect(received[2]?.id).toBe('boot-8')
  })

  it('lets a client that stops reading lose events while another gets them all', async () => {
    const bus = createEventBus({ bootId: 'boot' })
    const server = await serve(bus)
    cleanups.push(server.close)
    const healthy = await open(server.url)
    const received = collect(healthy, ['entries_created'])

    // A raw client that sends its request and then never reads from the socket.
    const { port } = new URL(server.url)
    const stalled = connect(Number(port), '127.0.0.1')
    cleanups.push(() => void stalled.destroy())
    await once(stalled, 'connect')
    stalled.pause()
    stalled.write(`GET /system/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    await until(() => server.subscriptions.length === 2, 'the second subscriber')
    const stalledSub = server.subscriptions[1] as Subscription

    const total = 6_000
    const filler = 'x'.repeat(4_000) // ~24 MB in all: more than the socket buffers hold
    for (let i = 1; i <= total; i++) {
      bus.publish('entries_created', { entries: [{ path: `/f${i}`, hash: filler }] })
      if (i % 100 === 0) await until(() => received.length >= i - 100, 'the healthy client')
    }
    await until(() => received.length === total, 'every event at the healthy client')

    expect(received.map((r) => r.id)).toEqual(
      Array.from({ length: total }, (_, i) => `boot-${i + 1}`),
    )
    expect(stalledSub.dropped).toBeGreaterThan(0)
    expect(stalledSub.pending).toBeLessThanOrEqual(200)
  })
})
