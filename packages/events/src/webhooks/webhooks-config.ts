import * as v from 'valibot'
import { EventsError } from '../errors'
import { EVENT_TYPES } from '../event-types'
import type { BusEventType } from '../event-types'

/** Where the webhook configuration lives inside the database. */
export const WEBHOOKS_CONFIG_PATH = '/.svcdb/webhooks.json'

/** Event types a webhook may ask for: everything published on the bus (not `events_lost`). */
const WEBHOOK_EVENT_TYPES = EVENT_TYPES.filter(
  (type): type is BusEventType => type !== 'events_lost',
)

/** Shortest accepted signing secret. */
const MIN_SECRET_LENGTH = 16
const MAX_WEBHOOKS = 256

const isHttpUrl = (input: string) => {
  try {
    const { protocol } = new URL(input)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

const webhookSchema = v.strictObject({
  id: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be 1-64 of letters, digits, _ . -'),
  ),
  url: v.pipe(v.string(), v.check(isHttpUrl, 'must be an http(s) URL')),
  events: v.pipe(
    v.array(v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)),
    v.minLength(1, 'must name at least one event type'),
  ),
  path_prefix: v.optional(v.pipe(v.string(), v.startsWith('/', 'must start with /'))),
  secret: v.pipe(
    v.string(),
    v.minLength(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`),
  ),
  active: v.optional(v.boolean()),
})

const webhooksFileSchema = v.strictObject({
  webhooks: v.pipe(
    v.array(webhookSchema),
    v.maxLength(MAX_WEBHOOKS, `at most ${MAX_WEBHOOKS} webhooks`),
    v.check(
      (hooks) => new Set(hooks.map((hook) => hook.id)).size === hooks.length,
      'ids must be unique',
    ),
  ),
})

/** One configured webhook. */
export interface WebhookConfig {
  readonly id: string
  /** http(s) destination of the POSTs. */
  readonly url: string
  /** Event types delivered; the same filtering as the stream's `events`. */
  readonly events: readonly BusEventType[]
  /** The stream's `path_prefix` filter, when set. */
  readonly pathPrefix?: string
  /** HMAC-SHA256 key of `X-Svcdb-Signature`. */
  readonly secret: string
  /** Inactive webhooks receive nothing; default true. */
  readonly active: boolean
}

/**
 * Parses `/.svcdb/webhooks.json`:
 * `{ "webhooks": [{ "id", "url", "events": [...], "path_prefix"?, "secret", "active"? }] }`.
 * Throws `INVALID_WEBHOOK_CONFIG` naming every problem (not JSON, unknown keys or event types,
 * bad URLs, short secrets, duplicate ids), with the underlying error as `cause`.
 *
 * @example
 * const hooks = parseWebhooksConfig(await readFile('webhooks.json'))
 */
export function parseWebhooksConfig(text: string | Uint8Array): WebhookConfig[] {
  let json: unknown
  try {
    json = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text))
  } catch (cause) {
    throw new EventsError('INVALID_WEBHOOK_CONFIG', `${WEBHOOKS_CONFIG_PATH} is not valid JSON`, {
      cause,
    })
  }
  const result = v.safeParse(webhooksFileSchema, json)
  if (!result.success) {
    const problems = result.issues.slice(0, 10).map((issue) => {
      const where = v.getDotPath(issue)
      return where === null ? issue.message : `${where}: ${issue.message}`
    })
    throw new EventsError(
      'INVALID_WEBHOOK_CONFIG',
      `${WEBHOOKS_CONFIG_PATH} is invalid: ${problems.join('; ')}`,
      {
        cause: new v.ValiError(result.issues),
      },
    )
  }
  return result.output.webhooks.map((hook) => ({
    id: hook.id,
    url: hook.url,
    events: hook.events,
    ...(hook.path_prefix === undefined ? {} : { pathPrefix: hook.path_prefix }),
    secret: hook.secret,
    active: hook.active ?? true,
  }))
}
