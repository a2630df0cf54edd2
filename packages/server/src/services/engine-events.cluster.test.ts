import { Database } from '@svcdb/engine'
import { createEventBus } from '@svcdb/events'
import type { EventBus, EventEnvelope, Subscription } from '@svcdb/events'
import { createPostgresMetaStore } from '@svcdb/postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClusterStorage } from '../../test/cluster/cluster-storage'
import type { ClusterStorage } from '../../test/cluster/cluster-storage'
import { createEngineChangeLog, createEngineEventPublisher } from './engine-events'
import type { EngineEventPublisher } from './engine-events'
import { waitUntil } from '../../test/kit/wait-until'

interface Node {
  db: Database
  bus: EventBus
  publisher: EngineEventPublisher
  /** Every event this node's bus published, as `id path`. */
  published: string[]
  /** The same events, as `id type payload-json`. */
  payloads: string[]
}

const brief = (e: EventEnvelope) =>
  e.event_type === 'entries_created' || e.event_type === 'entries_deleted'
    ? `${e.event_id} ${e.payload.entries.map((x) => x.path).join(',')}`
    : `${e.event_id} ${e.event_type}`

async function take(sub: Subscription, n: number): Promise<string[]> {
  const out: string[] = []
  while (out.length < n) {
    const batch = await sub.take()
    if (batch.length === 0) break
    out.push(...batch.map(brief))
  }
  return out
}

describe('engine events of two nodes on one PostgreSQL database', () => {
  let storage: ClusterStorage
  const nodes: Node[] = []

  async function node(replaySize?: number): Promise<Node> {
    const meta = await createPostgresMetaStore({ connectionString: storage.meta })
    const db = await Database.open({ meta, shared: true })
    const bus = createEventBus({
      changeLog: createEngineChangeLog(db),
      ...(replaySize === undefined ? {} : { replaySize }),
    })
    const publisher = createEngineEventPublisher(db, bus, (err) => {
      throw err
    })
    db.onChange((change) => publisher.publish(change))
    const published: string[] = []
    const payloads: string[] = []
    const record = bus.subscribe({ queueSize: 10_000 })
    void (async () => {
      for await (const event of record) {
        published.push(brief(event))
        payloads.push(`${event.event_id} ${event.event_type} ${JSON.stringify(event.payload)}`)
      }
    })()
    const made = { db, bus, publisher, published, payloads }
    nodes.push(made)
    return made
  }

  beforeAll(async () => {
    storage = await createClusterStorage()
  })

  afterAll(async () => {
    for (const { db, bus, publisher } of nodes.splice(0)) {
      await db.close()
      await publisher.idle()
      bus.close()
    }
    await storage?.dispose()
  })

  it('gives every change one id on both nodes, and resumes on B from an id of A through the log', async () => {
    const a = await node()
    const b = await node(3)
    await a.db.writeFile('/boot.txt', 'x')
    await waitUntil(
      'both see the first write',
      () => a.published.length >= 1 && b.published.length >= 1,
    )
    for (let i = 1; i <= 12; i++) await (i % 2 === 0 ? b : a).db.writeFile(`/f${i}.txt`, `${i}`)
    await waitUntil('13 events on both', () => a.published.length >= 13 && b.published.length >= 13)
    expect(b.published).toEqual(a.published)
    expect(new Set(a.published.map((line) => line.split(' ')[0])).size).toBe(13)

    // B's buffer keeps 3: an id of A from the start resumes from the version log.
    const from = a.published[1]?.split(' ')[0] ?? ''
    const resumed = b.bus.subscribe({ lastEventId: from })
    await a.db.writeFile('/live.txt', 'live')
    await waitUntil('the live write on A', () => a.published.length >= 14)
    expect(await take(resumed, 12)).toEqual(a.published.slice(2, 14))
  })

  it('publishes the same ids and payloads on both nodes for a write into a new directory and for concurrent writes', async () => {
    const a = await node()
    const b = await node()
    const onB = b.bus.subscribe({ pathPrefix: '/order/' })
    await a.db.writeFile('/order/0.txt', 'zero')
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => a.db.writeFile(`/order/a${i}.txt`, `${i}`)),
      ...Array.from({ length: 6 }, (_, i) => b.db.writeFile(`/order/b${i}.txt`, `${i}`)),
    ])
    await waitUntil('13 events on both', () => a.payloads.length >= 13 && b.payloads.length >= 13)
    await a.publisher.idle()
    await b.publisher.idle()
    expect(b.payloads).toEqual(a.payloads)
    expect(a.published[0]?.split(' ')[1]).toBe('/order/0.txt')
    // One event per write, folded commits included: each with an id of its own.
    expect(new Set(a.payloads.map((line) => line.split(' ')[0])).size).toBe(13)
    // A subscriber on B filtering on the new directory hears of A's file itself.
    expect((await take(onB, 1))[0]?.split(' ')[1]).toBe('/order/0.txt')
    onB.close()
  })
})
