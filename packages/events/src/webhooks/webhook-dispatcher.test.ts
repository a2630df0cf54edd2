import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventsError } from '../errors'
import { createEventBus } from '../event-bus'
import { createFakeClock } from '../testing/fake-clock'
import { createMemoryWebhookQueue } from './memory-webhook-queue'
import { createWebhookDispatcher } from './webhook-dispatcher'
import type { WebhookDispatcherOptions } from './webhook-dispatcher'
import type { WebhookQueue } from './webhook-queue'
import type { WebhookConfig } from './webhooks-config'

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** A real HTTP receiver on loopback answering with `status(n)` for its n-th request. */
const receiver = async (status: (n: number) => number | 'hang' = () => 204) => {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      const answer = status(received.length)
      if (answer === 'hang') return
      if (answer >= 300 && answer < 400) res.setHeader('location', '/elsewhere')
      res.writeHead(answer).end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  cleanups.push(async () => {
    server.closeAllConnections()
    server.close()
    await once(server, 'close')
  })
  return { url: `http://127.0.0.1:${port}/hook`, port, received }
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const SECRET = 'shared-secret-0123456789'
const webhook = (url: string, extra: Partial<WebhookConfig> = {}): WebhookConfig => ({
  id: 'hook',
  url,
  events: ['entries_created', 'entries_deleted'],
  secret: SECRET,
  active: true,
  ...extra,
})

const setup = (
  options: Partial<WebhookDispatcherOptions> & Pick<WebhookDispatcherOptions, 'webhooks'>,
) => {
  const clock = createFakeClock(1_000)
  const bus = createEventBus({ clock, bootId: 'boot' })
  const queue = createMemoryWebhookQueue()
  const errors: EventsError[] = []
  let ids = 0
  const dispatcher = createWebhookDispatcher({
    bus,
    queue,
    clock,
    allow: ['http://127.0.0.1:*'],
    onError: (err) => errors.push(err),
    newDeliveryId: () => `delivery-${++ids}`,
    ...options,
  })
  cleanups.push(() => dispatcher.close())
  return { clock, bus, queue, dispatcher, errors }
}

const created = (path: string) => ({ entries: [{ path, entry_type: 'file' as const }] })

describe('createWebhookDispatcher', () => {
  it('POSTs the envelope to a real receiver with event, delivery and a verifiable signature', async () => {
    const target = await receiver()
    const { bus, dispatcher, queue } = setup({ webhooks: [webhook(target.url)] })
    const envelope = bus.publish('entries_created', created('/docs/a.txt'))
    await dispatcher.idle()

    expect(target.received).toHaveLength(1)
    const [request] = target.received as [Received]
    expect(request.path).toBe('/hook')
    expect(JSON.parse(request.body)).toEqual(envelope)
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers['x-svcdb-event']).toBe('entries_created')
    expect(request.headers['x-svcdb-delivery']).toBe('delivery-1')
    const expected = `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`
    expect(request.headers['x-svcdb-signature']).toBe(expected)
    expect(await queue.size()).toBe(0)
    expect(dispatcher.stats()).toMatchObject({ enqueued: 1, delivered: 1, retried: 0, failed: 0 })
  })

  it('filters by event type and path prefix per webhook, and skips inactive ones', async () => {
    const target = await receiver()
    const { bus, dispatcher } = setup({
      webhooks: [
        webhook(target.url, { id: 'docs', pathPrefix: '/docs/' }),
        webhook(`${target.url}?all`, {
          id: 'all',
          events: ['entries_created', 'indexes_changed', 'heartbeat'],
        }),
        webhook(`${target.url}?off`, { id: 'off', active: false }),
      ],
    })
    bus.publish('entries_created', created('/docs/a'))
    bus.publish('entries_created', created('/other/b'))
    bus.publish('entries_deleted', created('/docs/a'))
    bus.publish('indexes_changed', { path: '/docs' })
    await dispatcher.idle()
    const seen = target.received.map(
      (r) => `${r.path} ${r.headers['x-svcdb-event']} ${JSON.parse(r.body).event_id}`,
    )
    expect(seen.sort()).toEqual([
      '/hook entries_created boot-1',
      '/hook entries_deleted boot-3',
      '/hook?all entries_created boot-1',
      '/hook?all entries_created boot-2',
      '/hook?all indexes_changed boot-4',
    ])
  })

  it('retries a failing receiver with exponential backoff until it succeeds', async () => {
    const target = await receiver((n) => (n <= 2 ? 503 : 200))
    const { bus, clock, dispatcher, queue } = setup({
      webhooks: [webhook(target.url)],
      retry: { baseDelayMs: 1_000, factor: 2 },
    })
    bus.publish('entries_created', created('/a'))
    await dispatcher.idle()
    expect(target.received).toHaveLength(1)
    expect(await queue.get('delivery-1')).toMatchObject({
      attempts: 1,
      lastError: 'HTTP 503',
      nextAttemptAt: 2_000,
    })

    await clock.advance(999)
    await dispatcher.idle()
    expect(target.received).toHaveLength(1)
    await clock.advance(1)
    await dispatcher.idle()
    expect(target.received).toHaveLength(2)
    expect(await queue.get('delivery-1')).toMatchObject({ attempts: 2, nextAttemptAt: 4_000 })

    await clock.advance(2_000)
    await dispatcher.idle()
    expect(target.received).toHaveLength(3)
    expect(await queue.size()).toBe(0)
    // Every attempt is the same delivery with the same signed body.
    expect(new Set(target.received.map((r) => r.headers['x-svcdb-delivery']))).toEqual(
      new Set(['delivery-1']),
    )
    expect(new Set(target.received.map((r) => r.headers['x-svcdb-signature'])).size).toBe(1)
    expect(dispatcher.stats()).toMatchObject({ delivered: 1, retried: 2, failed: 0 })
  })

  it('gives up after the last attempt and reports it', async () => {
    const target = await receiver(() => 500)
    const { bus, clock, dispatcher, queue, errors } = setup({
      webhooks: [webhook(target.url)],
      retry: { baseDelayMs: 100, factor: 10, maxDelayMs: 5_000, maxAttempts: 4 },
    })
    bus.publish('entries_created', created('/a'))
    await dispatcher.idle()
    for (const wait of [100, 1_000, 5_000]) {
      await clock.advance(wait)
      await dispatcher.idle()
    }
    expect(target.received).toHaveLength(4)
    expect(await queue.size()).toBe(0)
    expect(dispatcher.stats()).toMatchObject({ delivered: 0, retried: 3, failed: 1 })
    expect(errors.map((e) => e.code)).toEqual(['WEBHOOK_DELIVERY_FAILED'])
    expect(errors[0]?.message).toMatch(/failed 4 times, last: HTTP 500/)
  })

  it('counts a refused connection and a redirect as failed attempts', async () => {
    const redirecting = await receiver(() => 302)
    const closed = await receiver()
    cleanups.splice(-1, 1)[0]?.() // stop the second receiver: its port now refuses connections
    const { bus, dispatcher, queue } = setup({
      webhooks: [
        webhook(redirecting.url, { id: 'redirect' }),
        webhook(closed.url, { id: 'refused' }),
      ],
    })
    bus.publish('entries_created', created('/a'))
    await dispatcher.idle()
    const errors = (await queue.due(Number.POSITIVE_INFINITY, 10)).map((d) => [
      d.webhookId,
      d.lastError,
    ])
    expect(errors).toContainEqual(['redirect', 'HTTP 302'])
    expect(errors.find(([id]) => id === 'refused')?.[1]).toMatch(/fetch failed/)
  })

  it('refuses destinations off the allow-list and never calls them', async () => {
    const target = await receiver()
    const { bus, dispatcher } = setup({ webhooks: [], allow: ['https://hooks.example.com'] })
    const result = dispatcher.configure([webhook(target.url)])
    expect(result.ok && result.rejected.map((r) => [r.id, r.error.code])).toEqual([
      ['hook', 'DESTINATION_NOT_ALLOWED'],
    ])
    expect(result.ok && result.active).toEqual([])
    bus.publish('entries_created', created('/a'))
    await dispatcher.idle()
    expect(target.received).toEqual([])
  })

  it('loads a webhooks.json file, and reports a bad one while keeping what was in effect', async () => {
    const target = await receiver()
    const { dispatcher } = setup({ webhooks: [] })
    const good = JSON.stringify({
      webhooks: [{ id: 'a', url: target.url, events: ['metrics'], secret: SECRET }],
    })
    expect(dispatcher.load(good)).toEqual({ ok: true, active: ['a'], rejected: [] })
    const bad = dispatcher.load('{"webhooks": [{"id": "a"}]}')
    expect(bad.ok).toBe(false)
    expect(!bad.ok && bad.error.code).toBe('INVALID_WEBHOOK_CONFIG')
    expect(dispatcher.load('\u0000 garbage').ok).toBe(false)
    expect(dispatcher.webhooks.map((w) => w.id)).toEqual(['a'])
  })

  it('resumes queued deliveries after a restart, once webhooks are configured', async () => {
    const target = await receiver()
    const first = setup({ webhooks: [webhook('http://127.0.0.1:1/unreachable')] })
    first.bus.publish('entries_created', created('/a'))
    await first.dispatcher.idle()
    await first.dispatcher.close()
    expect(await first.queue.size()).toBe(1)

    // A new process: same durable queue, configuration read a little later.
    const bus = createEventBus({ clock: first.clock })
    const second = createWebhookDispatcher({
      bus,
      queue: first.queue,
      clock: first.clock,
      allow: ['*'],
    })
    cleanups.push(() => second.close())
    await first.clock.advance(10_000)
    await second.idle()
    expect(await first.queue.size()).toBe(1) // not discarded while unconfigured
    second.configure([webhook(target.url)])
    await second.idle()
    expect(target.received.map((r) => JSON.parse(r.body).payload)).toEqual([created('/a')])
    expect(await first.queue.size()).toBe(0)
  })

  it('discards deliveries whose webhook was removed', async () => {
    const target = await receiver(() => 503)
    const { bus, dispatcher, queue, clock } = setup({ webhooks: [webhook(target.url)] })
    bus.publish('entries_created', created('/a'))
    await dispatcher.idle()
    dispatcher.configure([])
    await clock.advance(60_000)
    await dispatcher.idle()
    expect(target.received).toHaveLength(1)
    expect(await queue.size()).toBe(0)
    expect(dispatcher.stats().discarded).toBe(1)
  })

  it('aborts a hanging attempt on close and keeps the delivery queued', async () => {
    const target = await receiver(() => 'hang')
    const { bus, dispatcher, queue } = setup({ webhooks: [webhook(target.url)] })
    bus.publish('entries_created', created('/a'))
    while (target.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 2))
    expect(dispatcher.stats().inFlight).toBe(1)
    await dispatcher.close()
    expect(dispatcher.stats().inFlight).toBe(0)
    expect(await queue.get('delivery-1')).toMatchObject({ attempts: 0 })
  })

  it('reads its queue after events only when one of them was queued', async () => {
    const target = await receiver()
    const memory = createMemoryWebhookQueue()
    let reads = 0
    const queue: WebhookQueue = {
      ...memory,
      due: (now, limit) => {
        reads++
        return memory.due(now, limit)
      },
    }
    const { bus, dispatcher } = setup({
      webhooks: [webhook(target.url, { events: ['entries_deleted'] })],
      queue,
    })
    await dispatcher.idle()
    const before = reads
    for (let i = 0; i < 5; i++) bus.publish('entries_created', created(`/f${i}`))
    await dispatcher.idle()
    expect(reads).toBe(before)
    expect(target.received).toHaveLength(0)

    bus.publish('entries_deleted', created('/gone'))
    await dispatcher.idle()
    expect(reads).toBeGreaterThan(before)
    expect(target.received.map((r) => JSON.parse(r.body).payload)).toEqual([created('/gone')])
  })

  it('does not start again a delivery that ended while a queue read was under way', async () => {
    // The first queue read while delivery-1 is in flight takes its snapshot, then waits until
    // the test lets it answer.
    const memory = createMemoryWebhookQueue()
    const sent: string[] = []
    let answerRead: (() => void) | undefined
    const queue: WebhookQueue = {
      ...memory,
      async due(now, limit) {
        const snapshot = await memory.due(now, limit)
        if (sent.length === 1 && answerRead === undefined)
          await new Promise<void>((resolve) => (answerRead = resolve))
        return snapshot
      },
    }
    let answerPost: (() => void) | undefined
    const fetch = (async (_url: string, init: RequestInit) => {
      sent.push(String((init.headers as Record<string, string>)['x-svcdb-delivery']))
      if (sent.length === 1) await new Promise<void>((resolve) => (answerPost = resolve))
      return new Response(null, { status: 204 })
    }) as typeof globalThis.fetch
    const { bus, dispatcher } = setup({ webhooks: [webhook('http://127.0.0.1:1/')], queue, fetch })
    bus.publish('entries_created', created('/a'))
    await vi.waitFor(() => expect(answerPost).toBeDefined())
    bus.publish('entries_created', created('/b'))
    await vi.waitFor(() => expect(answerRead).toBeDefined())
    answerPost?.()
    await vi.waitFor(async () => expect(await memory.get('delivery-1')).toBeUndefined())
    answerRead?.()
    await dispatcher.idle()
    expect(sent).toEqual(['delivery-1', 'delivery-2'])
  })

  it('refuses bad options at once', () => {
    const bus = createEventBus()
    const queue = createMemoryWebhookQueue()
    expect(() => createWebhookDispatcher({ bus, queue, allow: [], concurrency: 0 })).toThrow(
      RangeError,
    )
    expect(() => createWebhookDispatcher({ bus, queue, allow: ['nope'] })).toThrow(TypeError)
    expect(() =>
      createWebhookDispatcher({ bus, queue, allow: [], retry: { maxAttempts: 0 } }),
    ).toThrow(RangeError)
  })
})
