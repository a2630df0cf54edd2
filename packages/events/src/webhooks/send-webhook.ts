import { signWebhookBody } from './webhook-signature'
import type { WebhookDelivery } from './webhook-queue'

/** What one delivery attempt came to. */
export interface WebhookAttempt {
  readonly ok: boolean
  /** Why it failed: an HTTP status or a network error. */
  readonly error?: string
}

/** Inputs of {@link sendWebhook}. */
export interface SendWebhookInput {
  readonly fetch: typeof globalThis.fetch
  readonly url: string
  readonly secret: string
  readonly delivery: WebhookDelivery
  readonly timeoutMs: number
  /** Aborts the attempt (dispatcher shutdown). */
  readonly signal: AbortSignal
}

/**
 * POSTs one delivery: the envelope as the body, `X-Svcdb-Event`, `X-Svcdb-Delivery` and
 * `X-Svcdb-Signature` headers. Only a 2xx answer counts; redirects are not followed, so an
 * allowed destination cannot bounce a delivery to one that is not.
 */
export async function sendWebhook(input: SendWebhookInput): Promise<WebhookAttempt> {
  const { delivery } = input
  try {
    const response = await input.fetch(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'svcdb-webhooks',
        'x-svcdb-event': delivery.eventType,
        'x-svcdb-delivery': delivery.id,
        'x-svcdb-signature': await signWebhookBody(input.secret, delivery.body),
      },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.any([input.signal, AbortSignal.timeout(input.timeoutMs)]),
    })
    await response.body?.cancel().catch(() => undefined)
    if (response.status >= 200 && response.status < 300) return { ok: true }
    return { ok: false, error: `HTTP ${response.status}` }
  } catch (err) {
    const cause = (err as { cause?: { code?: unknown } }).cause
    const detail = typeof cause?.code === 'string' ? ` (${cause.code})` : ''
    return { ok: false, error: `${err instanceof Error ? err.message : String(err)}${detail}` }
  }
}
