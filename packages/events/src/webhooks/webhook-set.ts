import { EventsError } from '../errors'
import { createEventFilter } from '../event-filter'
import type { EventFilter } from '../event-filter'
import type { DestinationAllowList } from './destination-allow-list'
import type { WebhookConfig } from './webhooks-config'

/** A webhook in effect, with its compiled event filter. */
export interface ActiveWebhook {
  readonly config: WebhookConfig
  readonly filter: EventFilter
}

/** The outcome of applying a webhook configuration; never thrown. */
export type WebhooksLoadResult =
  | {
      readonly ok: true
      /** Ids of webhooks now in effect (active and allowed). */
      readonly active: readonly string[]
      /** Webhooks refused, e.g. with `DESTINATION_NOT_ALLOWED`. */
      readonly rejected: readonly { readonly id: string; readonly error: EventsError }[]
    }
  | { readonly ok: false; readonly error: EventsError }

/**
 * Keeps the active webhooks whose destination is allowed, each with the stream's filter
 * semantics (`events`, `path_prefix`), and names the ones refused.
 */
export function compileWebhooks(
  webhooks: readonly WebhookConfig[],
  allow: DestinationAllowList,
): { hooks: Map<string, ActiveWebhook>; result: WebhooksLoadResult } {
  const hooks = new Map<string, ActiveWebhook>()
  const rejected: { id: string; error: EventsError }[] = []
  for (const config of webhooks) {
    if (!allow.allows(config.url)) {
      const reason = `webhook '${config.id}': ${config.url} is not on the destination allow-list`
      rejected.push({ id: config.id, error: new EventsError('DESTINATION_NOT_ALLOWED', reason) })
      continue
    }
    if (!config.active) continue
    const filter = createEventFilter({ events: config.events, pathPrefix: config.pathPrefix })
    hooks.set(config.id, { config, filter })
  }
  return { hooks, result: { ok: true, active: [...hooks.keys()], rejected } }
}
