import { Database } from '@svcdb/engine'
import type { Leases } from '@svcdb/engine'
import { createEventBus, WEBHOOKS_CONFIG_PATH } from '@svcdb/events'
import { createPostgresLeases, createPostgresMetaStore } from '@svcdb/postgres'
import { afterEach, describe, expect, it } from 'vitest'
import { createClusterStorage } from '../../test/cluster/cluster-storage'
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

/**
 * One server node as the server wires it on PostgreSQL: a shared `Database` on a store of its
 * own, its own leases (own sessions, so the lock is really contended), its own bus fed by
 * the database's changes (every node's commits, with the same `bootId` so event ids
 * coincide) and its own dispatcher.
 */
const startNode = async (url: string) => {
  const meta = await createPostgresMetaStore({ connectionString: url, member: true })
  const db = await Database.open({ meta, shared: true })
  const leases: Leases = await createPostgresLeases({ connectionString: url })
  const bus = createEventBus({ bootId: 'shared' })
  const publisher = createEngineEventPublisher(db, bus, (err) => {
    throw err
  })
  const stopFeed = db.onChange((change) => publisher.publish(change))
  const warnings: string[] = []
  const logger = createLogger({ level: 'warn', write: (line) => warnings.push(line) })
  const webhooks = await startWebhooks(db, bus, ['http://127.0.0.1:*'], logger, {
    leases,
    lockRetryMs: 50,
  })
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    stopFeed()
    await webhooks.stop()
    await leases.close()
    await db.close()
  }
  cleanups.push(stop)
  return { db, dispatcher: webhooks.dispatcher, warnings, stop }
}

describe('startWebhooks on PostgreSQL', () => {
  it('delivers each commit once across two nodes, and the survivor takes over', async () => {
    const storage = await createClusterStorage()
    cleanups.push(() => storage.dispose())
    // The first request hangs: its node is mid-delivery when it stops.
    const target = await receiver((n) => (n === 1 ? 'hang' : 204))
    const nodes = [await startNode(storage.meta), await startNode(storage.meta)] as const
    await nodes[0].db.writeFile(
      WEBHOOKS_CONFIG_PATH,
      JSON.stringify({
        webhooks: [
          {
            id: 'docs',
            url: target.url,
            events: ['entries_created'],
            path_prefix: '/docs/',
            secret: 's'.repeat(16),
          },
        ],
      }),
    )
    await waitUntil('both nodes configured', () =>
      nodes.every((n) => n.dispatcher.webhooks.length === 1),
    )
    for (let i = 0; i < 6; i++) await nodes[i % 2]!.db.writeFile(`/docs/${i}.txt`, `text ${i}`)
    // Settled: five answered and settled, the hung one still in flight on the lock holder.
    const settled = (n: (typeof nodes)[number]) =>
      n.dispatcher.stats().inFlight === 1 && n.dispatcher.stats().delivered === 5
    await waitUntil('five deliveries and one hung attempt', () => nodes.some(settled))
    expect(target.received).toHaveLength(6)
    const holder = nodes.find(settled)
    const other = nodes.find((n) => n !== holder)
    if (holder === undefined || other === undefined) throw new Error('no holder')
    await holder.stop()

    await waitUntil('the takeover', () => target.answered().length === 6)
    await other.db.writeFile('/docs/after.txt', 'after')
    await waitUntil('the last change', () => target.answered().length === 7)
    await other.dispatcher.idle()
    const paths = target.answered().map((r) => r.path)
    expect(paths.sort()).toEqual([
      '/docs/0.txt',
      '/docs/1.txt',
      '/docs/2.txt',
      '/docs/3.txt',
      '/docs/4.txt',
      '/docs/5.txt',
      '/docs/after.txt',
    ])
    expect(new Set(target.answered().map((r) => r.delivery)).size).toBe(7)
    expect(target.received.filter((r) => r.delivery === target.received[0]?.delivery)).toHaveLength(
      2,
    )
    await waitUntil(
      'an empty queue',
      async () => (await createEngineWebhookQueue(other.db).size()) === 0,
    )
    expect(nodes.flatMap((n) => n.warnings)).toEqual([])
  })
})
