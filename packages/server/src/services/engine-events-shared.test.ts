import { Database, guardConflict, guardHolds } from '@svcdb/engine'
import type { KeyOf, MetaStore, RangeOptions, Space } from '@svcdb/engine'
import { createEventBus } from '@svcdb/events'
import type { EventBus, EventEnvelope, Subscription } from '@svcdb/events'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngineChangeLog, createEngineEventPublisher } from './engine-events'
import type { EngineEventPublisher } from './engine-events'
import { waitUntil } from '../../test/kit/wait-until'

/** A metadata store in memory, enough for two nodes (keys compared as LevelDB does for ASCII). */
function memoryMetaStore(): MetaStore {
  const spaces = new Map<Space, Map<string, [unknown, Uint8Array]>>()
  const slot = (key: unknown) =>
    typeof key === 'string' ? `t${key}` : `b${Buffer.from(key as Uint8Array).toString('hex')}`
  const space = (name: Space) => {
    let found = spaces.get(name)
    if (found === undefined) spaces.set(name, (found = new Map()))
    return found
  }
  const inRange = <K>(slotOf: string, range: RangeOptions<K>) =>
    (range.gt === undefined || slotOf > slot(range.gt)) &&
    (range.gte === undefined || slotOf >= slot(range.gte)) &&
    (range.lt === undefined || slotOf < slot(range.lt)) &&
    (range.lte === undefined || slotOf <= slot(range.lte))
  async function* iterate<S extends Space>(
    name: S,
    range: RangeOptions<KeyOf<S>> = {},
  ): AsyncGenerator<[KeyOf<S>, Uint8Array]> {
    const entries = [...space(name)]
      .filter(([at]) => inRange(at, range))
      .sort(([x], [y]) => (x < y ? -1 : 1))
    if (range.reverse === true) entries.reverse()
    for (const [, [key, value]] of entries.slice(0, range.limit ?? entries.length))
      yield [key as KeyOf<S>, value]
  }
  return {
    get: async (name, key) => space(name).get(slot(key))?.[1],
    getMany: async (name, keys) => keys.map((key) => space(name).get(slot(key))?.[1]),
    async batch(ops, options) {
      for (const guard of options.guards ?? []) {
        const stored = space(guard.space).get(slot(guard.key))?.[1]
        if (!guardHolds(stored, guard.expect)) throw guardConflict(guard, stored)
      }
      for (const op of ops)
        if (op.type === 'put') space(op.space).set(slot(op.key), [op.key, op.value])
        else space(op.space).delete(slot(op.key))
    },
    iterate,
    async *keys(name, range) {
      for await (const [key] of iterate(name, range)) yield key
    },
    close: async () => undefined,
  }
}

/** `meta` for one node: closing the node leaves the shared store open. */
const view = (meta: MetaStore): MetaStore => ({
  get: (space, key) => meta.get(space, key),
  getMany: (space, keys) => meta.getMany(space, keys),
  batch: (ops, options) => meta.batch(ops, options),
  iterate: (space, range) => meta.iterate(space, range),
  keys: (space, range) => meta.keys(space, range),
  close: async () => undefined,
})

interface Node {
  db: Database
  bus: EventBus
  publisher: EngineEventPublisher
  /** Every change event this node's bus published, as `id path`. */
  published: string[]
  /** The same events, as `id type payload-json`. */
  payloads: string[]
}

const brief = (e: EventEnvelope) =>
  e.event_type === 'entries_created' || e.event_type === 'entries_deleted'
    ? `${e.event_id} ${e.event_type === 'entries_created' ? '+' : '-'}${e.payload.entries.map((x) => x.path).join(',')}`
    : e.event_type === 'versions_created'
      ? `${e.event_id} version:${e.payload.name}`
      : e.event_type

/** Events of `sub` until `n` arrived. */
async function take(sub: Subscription, n: number): Promise<string[]> {
  const out: string[] = []
  while (out.length < n) {
    const batch = await sub.take()
    if (batch.length === 0) break
    out.push(...batch.map(brief))
  }
  return out
}

describe('engine events of two nodes on one shared database', () => {
  let meta: MetaStore
  const nodes: Node[] = []

  async function node(replaySize?: number): Promise<Node> {
    const db = await Database.open({ meta: view(meta), shared: true, sharedPollMs: 5 })
    const bus = createEventBus({
      changeLog: createEngineChangeLog(db),
      ...(replaySize === undefined ? {} : { replaySize }),
    })
    const publisher = createEngineEventPublisher(db, bus, (err) => {
      throw err
    })
    const published: string[] = []
    const payloads: string[] = []
    db.onChange((change) => publisher.publish(change))
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

  beforeEach(async () => {
    meta = memoryMetaStore()
  })

  afterEach(async () => {
    for (const { db, bus, publisher } of nodes.splice(0)) {
      await db.close()
      await publisher.idle()
      bus.close()
    }
    await meta.close()
  })

  it('gives the same change the same event id on both nodes, in commit order', async () => {
    const a = await node()
    const b = await node()
    await a.db.writeFile('/a1.txt', 'one')
    await b.db.writeFile('/b1.txt', 'two')
    await a.db.snapshots.create('s1')
    await b.db.delete('/a1.txt')
    await a.db.snapshots.restore('s1')
    // The restore publishes the entries it changed: /a1.txt back, /b1.txt kept.
    await waitUntil('five events on both', () => a.published.length >= 5 && b.published.length >= 5)
    await a.publisher.idle()
    await b.publisher.idle()
    expect(a.published).toEqual(b.published)
    const id = a.published[0]?.split(' ')[0]
    expect(id).toMatch(/^[0-9a-z]+\.1\.0$/)
    expect(a.published.map((line) => line.split(' ')[1])).toEqual([
      '+/a1.txt',
      '+/b1.txt',
      'version:s1',
      '-/a1.txt',
      '+/a1.txt',
    ])
  })

  it('resumes on B with an id from A: from B’s buffer, or from the log when B no longer holds it', async () => {
    const a = await node()
    const b = await node(2)
    const from = (await (async () => {
      const sub = a.bus.subscribe({})
      await a.db.writeFile('/x1.txt', '1')
      const [first] = await sub.take()
      sub.close()
      return first
    })()) as EventEnvelope
    for (let i = 2; i <= 6; i++) await (i % 2 === 0 ? b : a).db.writeFile(`/x${i}.txt`, `${i}`)
    await waitUntil('B has published six', () => b.published.length >= 6)
    // B's buffer holds the last two: resuming after the first replays four from the log.
    const resumed = b.bus.subscribe({ lastEventId: from.event_id })
    await b.db.writeFile('/x7.txt', '7')
    const events = await take(resumed, 6)
    await waitUntil('A has published seven', () => a.published.length >= 7)
    expect(events).toEqual(a.published.slice(1, 7))
    // From B's buffer: an id A published that B holds too.
    const recent = b.bus.subscribe({ lastEventId: a.published[5]?.split(' ')[0] ?? '' })
    await a.db.writeFile('/x8.txt', '8')
    await waitUntil('A has published eight', () => a.published.length >= 8)
    expect(await take(recent, 2)).toEqual(a.published.slice(6, 8))
  })

  it('publishes the same ids and payloads on both nodes for a write into a new directory and for concurrent writes', async () => {
    const a = await node()
    const b = await node()
    const onB = b.bus.subscribe({ pathPrefix: '/order/' })
    await a.db.writeFile('/order/0.txt', 'zero')
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => a.db.writeFile(`/order/${i + 1}.txt`, `${i}`)),
    )
    await waitUntil('seven events on both', () => a.payloads.length >= 7 && b.payloads.length >= 7)
    await a.publisher.idle()
    await b.publisher.idle()
    expect(b.payloads).toEqual(a.payloads)
    expect(a.published[0]?.split(' ')[1]).toBe('+/order/0.txt')
    // Folded commits publish one event per write, each with its part: ids stay distinct.
    expect(new Set(a.payloads.map((line) => line.split(' ')[0])).size).toBe(7)
    // A subscriber on B filtering on the new directory hears of the file itself.
    expect((await take(onB, 1))[0]?.split(' ')[1]).toBe('+/order/0.txt')
    onB.close()
  })
})
