import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature'

const nodeHmac = (secret: string, body: string | Uint8Array) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

describe('webhook signatures', () => {
  it('match an independent HMAC-SHA256 (node:crypto) for any secret and body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.string({ unit: 'grapheme' }),
        async (secret, body) => {
          expect(await signWebhookBody(secret, body)).toBe(nodeHmac(secret, body))
        },
      ),
      { numRuns: 50 },
    )
    const bytes = Uint8Array.of(0, 255, 10, 13)
    expect(await signWebhookBody('k'.repeat(16), bytes)).toBe(nodeHmac('k'.repeat(16), bytes))
  })

  it('verify accepts the right signature and nothing else', async () => {
    const secret = 'a-secret-of-16-chars'
    const body = '{"event_id":"b-1"}'
    const signature = await signWebhookBody(secret, body)
    expect(await verifyWebhookSignature(secret, body, signature)).toBe(true)
    expect(
      await verifyWebhookSignature(
        secret,
        body,
        signature.toUpperCase().replace('SHA256', 'sha256'),
      ),
    ).toBe(true)
    expect(await verifyWebhookSignature(secret, `${body} `, signature)).toBe(false)
    expect(await verifyWebhookSignature(`${secret}x`, body, signature)).toBe(false)
    expect(await verifyWebhookSignature(secret, body, signature.slice(0, -2))).toBe(false)
    expect(await verifyWebhookSignature(secret, body, signature.replace('sha256=', 'sha1='))).toBe(
      false,
    )
    expect(await verifyWebhookSignature(secret, body, undefined)).toBe(false)
  })
})
