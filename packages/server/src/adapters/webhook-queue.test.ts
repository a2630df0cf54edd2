import type { Database, SystemStore } from '@svcdb/engine'
import type { WebhookDelivery, WebhookQueue } from '@svcdb/events'
import { testWebhookQueue } from '@svcdb/events/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'
import { createEngineWebhookQueue } from './webhook-queue'

const temps = new Map<WebhookQueue, TempDatabase>()
testWebhookQueue('engine system store on disk', {
  async create() {
    const temp = await openTempDatabase()
    const queue = createEngineWebhookQueue(temp.db)
    temps.set(queue, temp)
    return queue
  },
  async destroy(queue) {
    await temps.get(queue)?.destroy()
    temps.delete(queue)
  },
  async reopen(queue) {
    const temp = temps.get(queue)
    if (temp === undefined) throw new Error('unknown queue')
    temps.delete(queue)
    const again = createEngineWebhookQueue(await temp.reopen())
    temps.set(again, temp)
    return again
  },
})

const delivery = (id: string, nextAttemptAt: number): WebhookDelivery => ({
  id,
  webhookId: 'hook',
  eventId: `boot-${id}`,
  eventType: 'entries_created',
  body: '{}',
  attempts: 0,
  nextAttemptAt,
  createdAt: 0,
})

describe('createEngineWebhookQueue', () => {
  let temp: TempDatabase | undefined
  afterEach(async () => {
    await temp?.destroy()
    temp = undefined
  })

  it('orders due times numerically, across digit counts', async () => {
    temp = await openTempDatabase()
    const queue = createEngineWebhookQueue(temp.db)
    await queue.put(delivery('late', 1_700_000_000_000))
    await queue.put(delivery('early', 9))
    await queue.put(delivery('middle', 100))
    expect((await queue.due(Number.MAX_SAFE_INTEGER, 10)).map((d) => d.id)).toEqual([
      'early',
      'middle',
      'late',
    ])
    expect(await queue.nextDueAt()).toBe(9)
  })

  it('reads only the head of the due index, and only due records', async () => {
    temp = await openTempDatabase()
    const system = temp.db.systemStore('webhooks')
    const spied: SystemStore = {
      get: vi.fn((key: string) => system.get(key)),
      batch: (ops, options) => system.batch(ops, options),
      entries: vi.fn((prefix: string, options?: { limit?: number }) =>
        system.entries(prefix, options),
      ),
    }
    const queue = createEngineWebhookQueue({ systemStore: () => spied } as unknown as Database)
    for (let i = 0; i < 50; i++) await queue.put(delivery(`later-${i}`, 1_000 + i))
    await queue.put(delivery('now', 5))
    vi.mocked(spied.get).mockClear()
    vi.mocked(spied.entries).mockClear()
    expect((await queue.due(10, 3)).map((d) => d.id)).toEqual(['now'])
    expect(await queue.nextDueAt()).toBe(5)
    expect(vi.mocked(spied.entries).mock.calls).toEqual([
      ['due/', { limit: 3 }],
      ['due/', { limit: 1 }],
    ])
    expect(vi.mocked(spied.get).mock.calls).toEqual([['delivery/now']])
  })

  it('leaves one index entry per delivery when the same id is put concurrently', async () => {
    temp = await openTempDatabase()
    const queue = createEngineWebhookQueue(temp.db)
    await Promise.all([10, 20, 30, 40].map((at) => queue.put(delivery('a', at))))
    expect(await queue.size()).toBe(1)
    expect(await queue.nextDueAt()).toBe(40)
    expect(await queue.due(100, 10)).toEqual([delivery('a', 40)])
  })

  it('keeps one record when two queues on one database race to add the same id', async () => {
    temp = await openTempDatabase()
    // Two queues: two nodes' in-process locks, so only the store's guards separate them.
    const [a, b] = [createEngineWebhookQueue(temp.db), createEngineWebhookQueue(temp.db)]
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).add(delivery('hook:e-1', 10 + i))),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await a.size()).toBe(1)
    expect(await b.due(100, 10)).toHaveLength(1)
  })

  it('settles only the state read, and refuses a finished id until pruned', async () => {
    temp = await openTempDatabase()
    const [a, b] = [createEngineWebhookQueue(temp.db), createEngineWebhookQueue(temp.db)]
    const first = delivery('hook:e-1', 10)
    expect(await a.add(first)).toBe(true)
    const retry = { ...first, attempts: 1, nextAttemptAt: 50, lastError: 'HTTP 503' }
    expect(await a.replace(first, retry)).toBe(true)
    // A node that read the old state cannot move or finish it any more.
    expect(await b.replace(first, { ...first, attempts: 1, nextAttemptAt: 99 })).toBe(false)
    expect(await b.finish(first, 60)).toBe(false)
    expect(await b.due(100, 10)).toEqual([retry])
    expect(await b.finish(retry, 60)).toBe(true)
    expect(await a.replace(retry, { ...retry, attempts: 2, nextAttemptAt: 70 })).toBe(false)
    expect(await a.size()).toBe(0)
    expect(await a.nextDueAt()).toBeUndefined()
    expect(await a.add(first)).toBe(false)
    expect(await a.prune(60, 10)).toBe(0)
    expect(await a.prune(61, 10)).toBe(1)
    expect(await temp.db.systemStore('webhooks').entries('')).toEqual([])
    expect(await a.add(first)).toBe(true)
  })

  it('survives a reopen with its finished ids', async () => {
    temp = await openTempDatabase()
    const first = delivery('hook:e-1', 10)
    const queue = createEngineWebhookQueue(temp.db)
    await queue.add(first)
    await queue.finish(first, 20)
    const again = createEngineWebhookQueue(await temp.reopen())
    expect(await again.add(first)).toBe(false)
  })

  it('refuses a due time that is not whole non-negative milliseconds', async () => {
    temp = await openTempDatabase()
    const queue = createEngineWebhookQueue(temp.db)
    expect(() => queue.put(delivery('a', 1.5))).toThrow(RangeError)
    expect(() => queue.put(delivery('a', -1))).toThrow(RangeError)
    expect(await queue.size()).toBe(0)
  })
})
