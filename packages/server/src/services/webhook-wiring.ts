import type { Database, Leases } from '@svcdb/engine'
import { isEngineError } from '@svcdb/engine'
import { createWebhookDispatcher, WEBHOOKS_CONFIG_PATH } from '@svcdb/events'
import type { EventBus, WebhookDispatcher } from '@svcdb/events'
import { createEngineWebhookQueue } from '../adapters'
import type { Logger } from '../logger'

/** Options of {@link startWebhooks}. */
export interface WebhookWiringOptions {
  /**
   * Given when other nodes share the database: each delivery is then queued once across the
   * nodes and sent only by the node holding the lock `webhooks`; another node takes over within
   * `lockRetryMs` when it dies. Omitted, this node delivers everything it sees.
   */
  leases?: Leases
  /** How often a node without the lock tries to take it; default 5,000 ms. */
  lockRetryMs?: number
}

/**
 * Delivers events to the webhooks configured in `/.svcdb/webhooks.json` of HEAD (DESIGN §5),
 * reloading that file whenever a write to HEAD touches it. Only destinations in `allow` are
 * ever called; deliveries wait in the database across restarts (and, with `leases`, for the
 * next node to take the lock when their deliverer dies).
 *
 * @example
 * const webhooks = await startWebhooks(db, bus, allow, logger, shared ? { leases } : {})
 */
export async function startWebhooks(
  db: Database,
  bus: EventBus,
  allow: readonly string[],
  logger: Logger,
  options: WebhookWiringOptions = {},
): Promise<{ dispatcher: WebhookDispatcher; stop(): Promise<void> }> {
  const dispatcher = createWebhookDispatcher({
    bus,
    queue: createEngineWebhookQueue(db),
    allow,
    onError: (err) => logger.warn(`webhook: ${err.message}`),
    ...(options.leases === undefined ? {} : { leases: options.leases }),
    ...(options.lockRetryMs === undefined ? {} : { lockRetryMs: options.lockRetryMs }),
  })
  const reload = async () => {
    try {
      const result = dispatcher.load(await db.readFile(WEBHOOKS_CONFIG_PATH))
      // A bad file leaves the webhooks in effect as they were; say why.
      if (!result.ok) logger.warn(`webhook: ${result.error.message}`)
      else {
        for (const { id, error } of result.rejected) logger.warn(`webhook ${id}: ${error.message}`)
        logger.debug('webhooks loaded', {
          active: result.active.join(',') || 'none',
          rejected: result.rejected.length,
        })
      }
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND')) dispatcher.configure([])
      else logger.warn(`webhook: cannot load ${WEBHOOKS_CONFIG_PATH}: ${(err as Error).message}`)
    }
  }
  await reload()
  let queued = Promise.resolve()
  const stopWatching = db.onChange((change) => {
    if (change.fork !== undefined) return
    const touches =
      change.type === 'version_promoted' ||
      ((change.type === 'entries_created' || change.type === 'entries_deleted') &&
        change.entries.some((e) => WEBHOOKS_CONFIG_PATH.startsWith(e.path)))
    // One reload at a time, in commit order.
    if (touches) queued = queued.then(reload)
  })
  return {
    dispatcher,
    async stop() {
      stopWatching()
      await queued
      await dispatcher.close()
    },
  }
}
