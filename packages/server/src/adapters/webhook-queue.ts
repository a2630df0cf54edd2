import { createKeyedLock } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import type { WebhookDelivery, WebhookQueue } from '@svcdb/events'
import { encodeKeySegment } from './key-segment'

const DELIVERIES = 'delivery/'
const DUE = 'due/'
// Number.MAX_SAFE_INTEGER has 16 digits: fixed width makes key order numeric order.
const TIME_WIDTH = 16

const deliveryKey = (id: string) => DELIVERIES + encodeKeySegment(id)
const dueKey = (at: number, id: string) =>
  `${DUE}${String(at).padStart(TIME_WIDTH, '0')}/${encodeKeySegment(id)}`
const dueTime = (key: string) => Number(key.slice(DUE.length, DUE.length + TIME_WIDTH))

function checkDueTime(delivery: WebhookDelivery): void {
  const at = delivery.nextAttemptAt
  if (!Number.isSafeInteger(at) || at < 0) {
    throw new RangeError(
      `webhook delivery ${delivery.id}: nextAttemptAt must be a Unix time in whole ms, got ${at}`,
    )
  }
}

/**
 * The durable {@link WebhookQueue} of the server, in namespace `webhooks` of the database's
 * system store. Beside each JSON record (`delivery/<id>`) it keeps an index entry
 * `due/<zero-padded nextAttemptAt>/<id>`, written in the same atomic batch, so `due` and
 * `nextDueAt` read only the head of the index and never scan the queue. Writes of one id are
 * serialised in process; create one queue per database.
 *
 * @throws {RangeError} from `put` when `nextAttemptAt` is not a non-negative safe integer.
 * @example
 * const webhooks = createWebhookDispatcher({ bus, queue: createEngineWebhookQueue(db), allow })
 */
export function createEngineWebhookQueue(db: Database): WebhookQueue {
  const system = db.systemStore('webhooks')
  const lock = createKeyedLock()
  const get = async (id: string) => {
    const raw = await system.get(deliveryKey(id))
    return raw === undefined ? undefined : (JSON.parse(raw) as WebhookDelivery)
  }
  return {
    get,
    put(delivery) {
      checkDueTime(delivery)
      return lock.run(delivery.id, async () => {
        const old = await get(delivery.id)
        const index = dueKey(delivery.nextAttemptAt, delivery.id)
        const stale = old === undefined ? undefined : dueKey(old.nextAttemptAt, old.id)
        await system.batch([
          ...(stale === undefined || stale === index ? [] : [{ type: 'del' as const, key: stale }]),
          { type: 'put', key: deliveryKey(delivery.id), value: JSON.stringify(delivery) },
          { type: 'put', key: index, value: '' },
        ])
      })
    },
    remove: (id) =>
      lock.run(id, async () => {
        const old = await get(id)
        if (old === undefined) return
        await system.batch([
          { type: 'del', key: deliveryKey(id) },
          { type: 'del', key: dueKey(old.nextAttemptAt, id) },
        ])
      }),
    async due(now, limit) {
      if (!(limit > 0)) return []
      const head = await system.entries(DUE, {
        ...(Number.isFinite(limit) ? { limit: Math.floor(limit) } : {}),
      })
      const ids = head
        .filter(([key]) => dueTime(key) <= now)
        .map(([key]) => key.slice(DUE.length + TIME_WIDTH + 1))
      const found = await Promise.all(ids.map((id) => system.get(DELIVERIES + id)))
      // A delivery removed or rescheduled since the index read is skipped, not returned stale.
      return found
        .filter((raw) => raw !== undefined)
        .map((raw) => JSON.parse(raw) as WebhookDelivery)
        .filter((delivery) => delivery.nextAttemptAt <= now)
    },
    async nextDueAt() {
      const [first] = await system.entries(DUE, { limit: 1 })
      return first === undefined ? undefined : dueTime(first[0])
    },
    // Index values are empty, so counting them reads keys and little else.
    size: async () => (await system.entries(DUE)).length,
  }
}
