import { createLocalLeases } from '@svcdb/engine'
import type { Database, Leases } from '@svcdb/engine'
import { createEventBus, WEBHOOKS_CONFIG_PATH } from '@svcdb/events'
import { afterEach, describe, expect, it } from 'vitest'
import { openTempDatabase } from '../../test/kit'
import { createEngineWebhookQueue } from '../adapters'
import { createLogger } from '../logger'
import { createEngineEventPublisher } from './engine-events'
import { startWebhooks } from './webhook-wiring'
import { startWebhookReceiver } from '../../test/kit/webhook-receiver'
import { waitUntil } from '../../test/kit/wait-until'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A real loopback receiver, closed after the test. */
const receiver = async (answer?: (n: number) => number | 'hang') => {
  const started = await startWebhookReceiver(answer)
  cleanups.push(() => started.close())
  return started
}

const configure = (db: Database, url: string) =>
  db.writeFile(
    WEBHOOKS_CONFIG_PATH,
    JSON.stringify({
      webhooks: [
        {
          id: 'docs',
          url,
          events: ['entries_created'],
          path_prefix: '/docs/',
          secret: 's'.repeat(16),
        },
      ],
    }),
  )

/**
 * One server node's webhook part on `db`: its own bus fed by the database's changes (the same
 * `bootId` on every node, so event ids coincide as the cluster's do) and its own dispatcher.
 */
const startNode = async (db: Database, leases?: Leases) => {
  const bus = createEventBus({ bootId: 'shared' })
  const publisher = createEngineEventPublisher(db, bus, (err) => {
    throw err
  })
  const stopFeed = db.onChange((change) => publisher.publish(change))
  const warnings: string[] = []
  const logger = createLogger({ level: 'warn', write: (line) => warnings.push(line) })
  const webhooks = await startWebhooks(
    db,
    bus,
    ['http://127.0.0.1:*'],
    logger,
    leases === undefined ? {} : { leases, lockRetryMs: 20 },
  )
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    stopFeed()
    await webhooks.stop()
  }
  cleanups.push(stop)
  return { dispatcher: webhooks.dispatcher, warnings, stop }
}

const openShared = async (url: string) => {
  const temp = await openTempDatabase()
  cleanups.push(() => temp.destroy())
  await configure(temp.db, url)
  const leases = createLocalLeases()
  cleanups.push(() => leases.close())
  return { db: temp.db, leases }
}

describe('startWebhooks', () => {
  it('delivers each change once with two nodes on one database and one lock space', async () => {
    const target = await receiver()
    const { db, leases } = await openShared(target.url)
    const nodes = [await startNode(db, leases), await startNode(db, leases)]
    for (let i = 0; i < 5; i++) await db.writeFile(`/docs/${i}.txt`, `text ${i}`)
    await db.writeFile('/other/x.txt', 'not for the hook')
    await waitUntil('five deliveries', () => target.received.length >= 5)
    await Promise.all(nodes.map((n) => n.dispatcher.idle()))

    expect(target.received.map((r) => r.path).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `/docs/${i}.txt`),
    )
    expect(new Set(target.received.map((r) => r.delivery)).size).toBe(5)
    for (const r of target.received) expect(r.delivery).toBe(`docs:${r.eventId}`)
    const stats = nodes.map((n) => n.dispatcher.stats())
    expect(stats.reduce((t, s) => t + s.enqueued, 0)).toBe(5)
    expect(stats.map((s) => s.delivered).sort()).toEqual([0, 5])
    expect(await createEngineWebhookQueue(db).size()).toBe(0)
    expect(nodes.flatMap((n) => n.warnings)).toEqual([])
  })

  it('hands delivery to the other node when the lock holder stops mid-delivery', async () => {
    const target = await receiver((n) => (n === 1 ? 'hang' : 204))
    const { db, leases } = await openShared(target.url)
    const nodes = [await startNode(db, leases), await startNode(db, leases)]
    await db.writeFile('/docs/a.txt', 'a')
    await waitUntil('the first attempt', () => target.received.length === 1)
    const holder = nodes.find((n) => n.dispatcher.stats().inFlight === 1)
    const other = nodes.find((n) => n !== holder)
    if (holder === undefined || other === undefined) throw new Error('no holder in flight')
    await holder.stop()
    expect(await createEngineWebhookQueue(db).size()).toBe(1)

    await waitUntil('the takeover', () => target.answered().length === 1)
    await db.writeFile('/docs/b.txt', 'b')
    await waitUntil('the next change', () => target.answered().length === 2)
    await other.dispatcher.idle()
    expect(target.answered().map((r) => r.path)).toEqual(['/docs/a.txt', '/docs/b.txt'])
    // The retried delivery keeps its id, so the receiver can tell it from a new one.
    expect(target.received[0]?.delivery).toBe(target.received[1]?.delivery)
    expect(other.dispatcher.stats()).toMatchObject({ delivered: 2, inFlight: 0 })
    expect(await createEngineWebhookQueue(db).size()).toBe(0)
  })

  it('without leases, delivers what its own bus sees, with a fresh delivery id', async () => {
    const target = await receiver()
    const temp = await openTempDatabase()
    cleanups.push(() => temp.destroy())
    await configure(temp.db, target.url)
    const node = await startNode(temp.db)
    await temp.db.writeFile('/docs/a.txt', 'a')
    await waitUntil('the delivery', () => target.received.length === 1)
    await node.dispatcher.idle()
    expect(target.received[0]?.delivery).toMatch(/^[0-9a-f-]{36}$/)
    expect(node.dispatcher.stats()).toMatchObject({ enqueued: 1, delivered: 1 })
  })
})
