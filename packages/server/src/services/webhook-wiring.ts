import type { Database } from '@svcdb/engine'
import { isEngineError } from '@svcdb/engine'
import { createWebhookDispatcher, WEBHOOKS_CONFIG_PATH } from '@svcdb/events'
import type { EventBus, WebhookDispatcher } from '@svcdb/events'
import { createEngineWebhookQueue } from '../adapters'
import type { Logger } from '../logger'

/**
 * Delivers events to the webhooks configured in `/.svcdb/webhooks.json` of HEAD (DESIGN §5),
 * reloading that file whenever a write to HEAD touches it. Only destinations in `allow` are
 * ever called; deliveries wait in the database across restarts.
 */
export async function startWebhooks(
  db: Database,
  bus: EventBus,
  allow: readonly string[],
  logger: Logger,
): Promise<{ dispatcher: WebhookDispatcher; stop(): Promise<void> }> {
  const dispatcher = createWebhookDispatcher({
    bus,
    queue: createEngineWebhookQueue(db),
    allow,
    onError: (err) => logger.warn(`webhook: ${err.message}`),
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
