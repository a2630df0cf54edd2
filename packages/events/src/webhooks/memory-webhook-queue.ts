import type { WebhookDelivery, WebhookQueue } from './webhook-queue'

const byDue = (a: WebhookDelivery, b: WebhookDelivery) =>
  a.nextAttemptAt - b.nextAttemptAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const sameState = (stored: WebhookDelivery | undefined, current: WebhookDelivery) =>
  stored !== undefined &&
  stored.attempts === current.attempts &&
  stored.nextAttemptAt === current.nextAttemptAt

/**
 * A {@link WebhookQueue} in memory: for tests and embedded use where losing pending deliveries
 * on exit is acceptable. Not durable.
 *
 * @example
 * const dispatcher = createWebhookDispatcher({ bus, queue: createMemoryWebhookQueue(), allow: ['*'] })
 */
export function createMemoryWebhookQueue(): WebhookQueue {
  const deliveries = new Map<string, WebhookDelivery>()
  // Ids finished, with when: `add` refuses them until pruned.
  const finished = new Map<string, number>()
  return {
    put(delivery) {
      deliveries.set(delivery.id, { ...delivery })
      return Promise.resolve()
    },
    get(id) {
      const delivery = deliveries.get(id)
      return Promise.resolve(delivery === undefined ? undefined : { ...delivery })
    },
    remove(id) {
      deliveries.delete(id)
      return Promise.resolve()
    },
    due(now, limit) {
      const due = [...deliveries.values()].filter((d) => d.nextAttemptAt <= now).sort(byDue)
      return Promise.resolve(due.slice(0, Math.max(0, limit)).map((d) => ({ ...d })))
    },
    nextDueAt() {
      let next: number | undefined
      for (const d of deliveries.values())
        if (next === undefined || d.nextAttemptAt < next) next = d.nextAttemptAt
      return Promise.resolve(next)
    },
    size() {
      return Promise.resolve(deliveries.size)
    },
    add(delivery) {
      if (deliveries.has(delivery.id) || finished.has(delivery.id)) return Promise.resolve(false)
      deliveries.set(delivery.id, { ...delivery })
      return Promise.resolve(true)
    },
    replace(current, next) {
      if (next.id !== current.id || !sameState(deliveries.get(current.id), current))
        return Promise.resolve(false)
      deliveries.set(next.id, { ...next })
      return Promise.resolve(true)
    },
    finish(current, at) {
      if (!sameState(deliveries.get(current.id), current)) return Promise.resolve(false)
      deliveries.delete(current.id)
      finished.set(current.id, at)
      return Promise.resolve(true)
    },
    prune(before, limit) {
      let pruned = 0
      for (const [id, at] of finished) {
        if (pruned >= limit) break
        if (at < before) {
          finished.delete(id)
          pruned++
        }
      }
      return Promise.resolve(pruned)
    },
  }
}
