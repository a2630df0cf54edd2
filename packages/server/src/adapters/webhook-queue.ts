import { createKeyedLock } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import { isEngineError } from '@svcdb/engine'
import type { WebhookDelivery, WebhookQueue } from '@svcdb/events'
import { encodeKeySegment } from './key-segment'

const DELIVERIES = 'delivery/'
const DUE = 'due/'
// Finished ids (`add` refuses them), and the same by finish time, for pruning in order.
const DONE = 'done/'
const DONE_AT = 'done-at/'
// Number.MAX_SAFE_INTEGER has 16 digits: fixed width makes key order numeric order.
const TIME_WIDTH = 16

const deliveryKey = (id: string) => DELIVERIES + encodeKeySegment(id)
const dueKey = (at: number, id: string) =>
  `${DUE}${String(at).padStart(TIME_WIDTH, '0')}/${encodeKeySegment(id)}`
const timeIn = (key: string, prefix: string) =>
  Number(key.slice(prefix.length, prefix.length + TIME_WIDTH))
const dueTime = (key: string) => timeIn(key, DUE)
const doneKey = (id: string) => DONE + encodeKeySegment(id)
const doneAtKey = (at: number, id: string) =>
  `${DONE_AT}${String(at).padStart(TIME_WIDTH, '0')}/${encodeKeySegment(id)}`

function checkTime(id: string, field: string, at: number): void {
  if (!Number.isSafeInteger(at) || at < 0)
    throw new RangeError(
      `webhook delivery ${id}: ${field} must be a Unix time in whole ms, got ${at}`,
    )
}
const checkDueTime = (delivery: WebhookDelivery) =>
  checkTime(delivery.id, 'nextAttemptAt', delivery.nextAttemptAt)

// Another writer (a node of the cluster) changed a guarded key first.
const unlessConflict = async (write: Promise<void>): Promise<boolean> => {
  try {
    await write
    return true
  } catch (err) {
    if (isEngineError(err, 'CONFLICT')) return false
    throw err
  }
}

/**
 * The durable {@link WebhookQueue} of the server, in namespace `webhooks` of the database's
 * system store. Beside each JSON record (`delivery/<id>`) it keeps an index entry
 * `due/<zero-padded nextAttemptAt>/<id>`, written in the same atomic batch, so `due` and
 * `nextDueAt` read only the head of the index and never scan the queue. Writes of one id are
 * serialised in process; create one queue per database per process.
 *
 * `add`, `replace` and `finish` are guarded batches (compare-and-set on the record's exact
 * stored text), so they stay correct when several nodes share the database: racing `add`s
 * leave one record, and a settle from a stale read changes nothing. `finish` leaves
 * `done/<id>` (and `done-at/<time>/<id>` to prune by age) so a late `add` of the id fails.
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
  // The stored text of `current`'s record if it is still in `current`'s state.
  const storedAs = async (current: WebhookDelivery) => {
    const raw = await system.get(deliveryKey(current.id))
    if (raw === undefined) return undefined
    const stored = JSON.parse(raw) as WebhookDelivery
    const same =
      stored.attempts === current.attempts && stored.nextAttemptAt === current.nextAttemptAt
    return same ? { raw, stored } : undefined
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
    add(delivery) {
      checkDueTime(delivery)
      return lock.run(delivery.id, () =>
        unlessConflict(
          system.batch(
            [
              { type: 'put', key: deliveryKey(delivery.id), value: JSON.stringify(delivery) },
              { type: 'put', key: dueKey(delivery.nextAttemptAt, delivery.id), value: '' },
            ],
            {
              guards: [
                { key: deliveryKey(delivery.id), expect: null },
                { key: doneKey(delivery.id), expect: null },
              ],
            },
          ),
        ),
      )
    },
    replace(current, next) {
      checkDueTime(next)
      if (next.id !== current.id) return Promise.resolve(false)
      return lock.run(current.id, async () => {
        const found = await storedAs(current)
        if (found === undefined) return false
        const stale = dueKey(found.stored.nextAttemptAt, current.id)
        const index = dueKey(next.nextAttemptAt, next.id)
        return unlessConflict(
          system.batch(
            [
              ...(stale === index ? [] : [{ type: 'del' as const, key: stale }]),
              { type: 'put', key: deliveryKey(next.id), value: JSON.stringify(next) },
              { type: 'put', key: index, value: '' },
            ],
            { guards: [{ key: deliveryKey(current.id), expect: found.raw }] },
          ),
        )
      })
    },
    finish(current, at) {
      checkTime(current.id, 'finish time', at)
      return lock.run(current.id, async () => {
        const found = await storedAs(current)
        if (found === undefined) return false
        return unlessConflict(
          system.batch(
            [
              { type: 'del', key: deliveryKey(current.id) },
              { type: 'del', key: dueKey(found.stored.nextAttemptAt, current.id) },
              { type: 'put', key: doneKey(current.id), value: String(at) },
              { type: 'put', key: doneAtKey(at, current.id), value: '' },
            ],
            { guards: [{ key: deliveryKey(current.id), expect: found.raw }] },
          ),
        )
      })
    },
    async prune(before, limit) {
      if (!(limit > 0)) return 0
      const head = await system.entries(DONE_AT, { limit: Math.floor(limit) })
      const old = head.filter(([key]) => timeIn(key, DONE_AT) < before)
      if (old.length === 0) return 0
      // Two nodes pruning at once delete the same keys: harmless, deletes need no guard.
      await system.batch(
        old.flatMap(([key]) => [
          { type: 'del' as const, key },
          { type: 'del' as const, key: DONE + key.slice(DONE_AT.length + TIME_WIDTH + 1) },
        ]),
      )
      return old.length
    },
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
