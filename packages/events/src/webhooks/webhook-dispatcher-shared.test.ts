import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventsError } from '../errors'
import { createEventBus } from '../event-bus'
import type { EventBus } from '../event-bus'
import { createMemoryWebhookQueue } from './memory-webhook-queue'
import { createWebhookDispatcher } from './webhook-dispatcher'
import type { WebhookDispatcher } from './webhook-dispatcher'
import type { WebhookLeases } from './webhook-lock'
import type { WebhookQueue } from './webhook-queue'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A real loopback receiver; `answer(n)` for its n-th request, 'hang' never answers. */
const receiver = async (answer: (n: number) => number | 'hang' = () => 204) => {
  const received: { delivery: string; eventId: string; status: number | 'hang' }[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string }
      const status = answer(received.length + 1)
      received.push({
        delivery: String(req.headers['x-svcdb-delivery']),
        eventId: body.event_id,
        status,
      })
      if (status !== 'hang') res.writeHead(status).end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  cleanups.push(async () => {
    server.closeAllConnections()
    server.close()
    await once(server, 'close')
  })
  const { port } = server.address() as AddressInfo
  const answered = () => received.filter((r) => r.status !== 'hang' && r.status < 300)
  return { url: `http://127.0.0.1:${port}/hook`, received, answered }
}

/** One lock space, as one `Leases` object gives (an in-process stand-in for the engine's). */
const lockSpace = (): WebhookLeases => {
  const held = new Set<string>()
  return {
    async withLock(name, fn) {
      if (held.has(name)) return { ran: false }
      held.add(name)
      try {
        return { ran: true, value: await fn(new AbortController().signal) }
      } finally {
        held.delete(name)
      }
    },
  }
}

const until = async (what: string, test: () => boolean) => {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 10))
  if (!test()) throw new Error(`timed out waiting for ${what}`)
}

interface Node {
  bus: EventBus
  dispatcher: WebhookDispatcher
  errors: EventsError[]
}

const node = (queue: WebhookQueue, leases: WebhookLeases, url: string): Node => {
  // The same bootId on every node: their event ids coincide, as the cluster's do.
  const bus = createEventBus({ bootId: 'shared' })
  const errors: EventsError[] = []
  const dispatcher = createWebhookDispatcher({
    bus,
    queue,
    leases,
    lockRetryMs: 20,
    allow: ['http://127.0.0.1:*'],
    webhooks: [
      { id: 'hook', url, events: ['entries_created'], secret: 'x'.repeat(16), active: true },
    ],
    retry: { baseDelayMs: 10, maxDelayMs: 10 },
    onError: (err) => errors.push(err),
  })
  cleanups.push(() => dispatcher.close())
  return { bus, dispatcher, errors }
}

const created = (path: string) => ({ entries: [{ path, entry_type: 'file' as const }] })
const publishOn = (nodes: Node[], path: string) => {
  for (const { bus } of nodes) bus.publish('entries_created', created(path))
}
const sum = (nodes: Node[], key: 'enqueued' | 'delivered') =>
  nodes.reduce((total, n) => total + n.dispatcher.stats()[key], 0)

describe('createWebhookDispatcher with leases (several nodes, one queue)', () => {
  it('queues and delivers each event once, whichever node sees it', async () => {
    const target = await receiver()
    const queue = createMemoryWebhookQueue()
    const leases = lockSpace()
    const nodes = [node(queue, leases, target.url), node(queue, leases, target.url)]
    for (let i = 0; i < 6; i++) publishOn(nodes, `/f${i}`)
    await until('six deliveries', () => target.received.length >= 6)
    await Promise.all(nodes.map((n) => n.dispatcher.idle()))

    expect(target.received.map((r) => r.delivery).sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `hook:shared-${n}`).sort(),
    )
    expect(await queue.size()).toBe(0)
    expect(sum(nodes, 'enqueued')).toBe(6)
    // One node holds the lock and delivered everything.
    expect(nodes.map((n) => n.dispatcher.stats().delivered).sort()).toEqual([0, 6])
    expect(nodes.flatMap((n) => n.errors)).toEqual([])
  })

  it('does not queue again an event a late node sees after its delivery', async () => {
    const target = await receiver()
    const queue = createMemoryWebhookQueue()
    const leases = lockSpace()
    const [a, b] = [node(queue, leases, target.url), node(queue, leases, target.url)] as const
    publishOn([a], '/early')
    await until('the delivery', () => target.received.length === 1)
    await Promise.all([a, b].map((n) => n.dispatcher.idle()))
    publishOn([b], '/early')
    publishOn([a, b], '/next')
    await until('the next delivery', () => target.received.length >= 2)
    await Promise.all([a, b].map((n) => n.dispatcher.idle()))
    expect(target.received.map((r) => r.eventId)).toEqual(['shared-1', 'shared-2'])
    expect(sum([a, b], 'enqueued')).toBe(2)
  })

  it('lets another node deliver what the lock holder left when it closes', async () => {
    // The first request hangs: the holder is mid-delivery when it closes.
    const target = await receiver((n) => (n === 1 ? 'hang' : 204))
    const queue = createMemoryWebhookQueue()
    const leases = lockSpace()
    const nodes = [node(queue, leases, target.url), node(queue, leases, target.url)]
    publishOn(nodes, '/a')
    await until('the first attempt', () => target.received.length === 1)
    const holder = nodes.find((n) => n.dispatcher.stats().inFlight === 1)
    const other = nodes.find((n) => n !== holder)
    if (holder === undefined || other === undefined) throw new Error('no holder in flight')
    await holder.dispatcher.close()
    expect(await queue.size()).toBe(1)

    await until('the takeover', () => target.answered().length === 1)
    publishOn(nodes, '/b')
    await until('the next event', () => target.answered().length === 2)
    await other.dispatcher.idle()
    expect(target.answered().map((r) => r.delivery)).toEqual(['hook:shared-1', 'hook:shared-2'])
    expect(other.dispatcher.stats()).toMatchObject({ delivered: 2, inFlight: 0 })
    expect(await queue.size()).toBe(0)
  })

  it('keeps retrying with backoff under the lock, settling each retry once', async () => {
    const target = await receiver((n) => (n <= 2 ? 503 : 200))
    const queue = createMemoryWebhookQueue()
    const leases = lockSpace()
    const nodes = [node(queue, leases, target.url), node(queue, leases, target.url)]
    publishOn(nodes, '/a')
    await until('the success', () => target.answered().length === 1)
    await Promise.all(nodes.map((n) => n.dispatcher.idle()))
    expect(target.received.map((r) => r.status)).toEqual([503, 503, 200])
    expect(sum(nodes, 'delivered')).toBe(1)
    expect(nodes.reduce((t, n) => t + n.dispatcher.stats().retried, 0)).toBe(2)
    expect(await queue.size()).toBe(0)
  })
})
