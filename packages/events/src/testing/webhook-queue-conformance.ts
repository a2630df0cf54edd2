import { afterEach, describe, expect, it } from 'vitest'
import type { WebhookDelivery, WebhookQueue } from '../webhooks/webhook-queue'

/** Options of {@link testWebhookQueue}. */
export interface WebhookQueueSuiteOptions {
  /** Makes an empty queue for one test. */
  create: () => WebhookQueue | Promise<WebhookQueue>
  /** Releases a queue after its test (close the database, remove the temp dir). */
  destroy?: (queue: WebhookQueue) => void | Promise<void>
  /**
   * For durable implementations: closes `queue` and opens it again on the same storage. When
   * given, the suite checks that deliveries survive.
   */
  reopen?: (queue: WebhookQueue) => Promise<WebhookQueue>
}

const delivery = (
  id: string,
  nextAttemptAt: number,
  extra: Partial<WebhookDelivery> = {},
): WebhookDelivery => ({
  id,
  webhookId: 'hook-1',
  eventId: `boot-${id}`,
  eventType: 'entries_created',
  body: JSON.stringify({ event_id: `boot-${id}`, payload: { entries: [{ path: '/ü/€' }] } }),
  attempts: 0,
  nextAttemptAt,
  createdAt: 1_000,
  ...extra,
})

/**
 * The conformance suite of the {@link WebhookQueue} port, run with vitest. Every
 * implementation runs it in one line.
 *
 * @example
 * testWebhookQueue('memory', { create: () => createMemoryWebhookQueue() })
 */
export function testWebhookQueue(name: string, options: WebhookQueueSuiteOptions): void {
  describe(`WebhookQueue conformance: ${name}`, () => {
    let open: WebhookQueue[] = []
    const make = async () => {
      const queue = await options.create()
      open.push(queue)
      return queue
    }
    afterEach(async () => {
      for (const queue of open) await options.destroy?.(queue)
      open = []
    })

    it('stores and returns a delivery field for field', async () => {
      const queue = await make()
      const stored = delivery('a', 5_000, { attempts: 2, lastError: 'HTTP 503' })
      await queue.put(stored)
      expect(await queue.get('a')).toEqual(stored)
      expect(await queue.get('missing')).toBeUndefined()
      expect(await queue.size()).toBe(1)
      const plain = delivery('b', 1)
      await queue.put(plain)
      expect(await queue.get('b')).toEqual(plain)
      expect(Object.hasOwn((await queue.get('b')) ?? {}, 'lastError')).toBe(false)
    })

    it('replaces a delivery with the same id, including its due time', async () => {
      const queue = await make()
      await queue.put(delivery('a', 100))
      await queue.put(delivery('a', 9_000, { attempts: 1, lastError: 'timeout' }))
      expect(await queue.size()).toBe(1)
      expect(await queue.due(5_000, 10)).toEqual([])
      expect(await queue.get('a')).toMatchObject({
        attempts: 1,
        nextAttemptAt: 9_000,
        lastError: 'timeout',
      })
      expect(await queue.nextDueAt()).toBe(9_000)
    })

    it('lists due deliveries by due time, then id, up to a limit', async () => {
      const queue = await make()
      for (const [id, at] of [
        ['d', 30],
        ['b', 10],
        ['c', 10],
        ['a', 20],
        ['z', 99],
        ['later', 1_000],
      ] as const)
        await queue.put(delivery(id, at))
      expect((await queue.due(99, 10)).map((d) => d.id)).toEqual(['b', 'c', 'a', 'd', 'z'])
      expect((await queue.due(20, 2)).map((d) => d.id)).toEqual(['b', 'c'])
      expect(await queue.due(9, 10)).toEqual([])
      expect(await queue.due(1_000, 0)).toEqual([])
    })

    it('removes deliveries, absent ones too', async () => {
      const queue = await make()
      await queue.put(delivery('a', 1))
      await queue.put(delivery('b', 2))
      await queue.remove('a')
      await queue.remove('never-there')
      expect(await queue.size()).toBe(1)
      expect(await queue.get('a')).toBeUndefined()
      expect((await queue.due(10, 10)).map((d) => d.id)).toEqual(['b'])
    })

    it('reports the earliest due time, undefined when empty', async () => {
      const queue = await make()
      expect(await queue.nextDueAt()).toBeUndefined()
      await queue.put(delivery('a', 500))
      await queue.put(delivery('b', 200))
      expect(await queue.nextDueAt()).toBe(200)
      await queue.remove('b')
      expect(await queue.nextDueAt()).toBe(500)
      await queue.remove('a')
      expect(await queue.nextDueAt()).toBeUndefined()
      expect(await queue.size()).toBe(0)
    })

    it('keeps every delivery of concurrent puts', async () => {
      const queue = await make()
      const ids = Array.from({ length: 200 }, (_, i) => `id-${String(i).padStart(3, '0')}`)
      await Promise.all(ids.map((id, i) => queue.put(delivery(id, i % 7))))
      expect(await queue.size()).toBe(200)
      const due = await queue.due(10, 500)
      expect(due).toHaveLength(200)
      for (let i = 1; i < due.length; i++) {
        const [prev, cur] = [due[i - 1] as WebhookDelivery, due[i] as WebhookDelivery]
        expect(
          prev.nextAttemptAt < cur.nextAttemptAt ||
            (prev.nextAttemptAt === cur.nextAttemptAt && prev.id < cur.id),
        ).toBe(true)
      }
    })

    it('is not changed by changing what it returned', async () => {
      const queue = await make()
      await queue.put(delivery('a', 1))
      const got = (await queue.get('a')) as { attempts: number }
      got.attempts = 99
      expect((await queue.get('a'))?.attempts).toBe(0)
    })

    const reopen = options.reopen
    if (reopen !== undefined)
      it('keeps deliveries across close and reopen', async () => {
        const queue = await make()
        await queue.put(delivery('a', 7, { attempts: 3, lastError: 'HTTP 500' }))
        await queue.put(delivery('b', 3))
        await queue.remove('b')
        open = open.filter((q) => q !== queue)
        const again = await reopen(queue)
        open.push(again)
        expect(await again.size()).toBe(1)
        expect(await again.get('a')).toEqual(
          delivery('a', 7, { attempts: 3, lastError: 'HTTP 500' }),
        )
        expect(await again.nextDueAt()).toBe(7)
      })
  })
}
