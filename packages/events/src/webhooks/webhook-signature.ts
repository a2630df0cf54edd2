const PREFIX = 'sha256='

const encoder = new TextEncoder()
const bytes = (data: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data)

const hmacKey = (secret: string, usage: 'sign' | 'verify') =>
  globalThis.crypto.subtle.importKey(
    'raw',
    bytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    [usage],
  )

/**
 * The `X-Svcdb-Signature` value of a webhook body: `sha256=` and the lowercase hex HMAC-SHA256
 * of the exact body bytes, keyed with the webhook's secret. Uses WebCrypto (Node, browsers).
 *
 * @example
 * await signWebhookBody('0123456789abcdef', body) // 'sha256=5c…'
 */
export async function signWebhookBody(secret: string, body: string | Uint8Array): Promise<string> {
  const mac = await globalThis.crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret, 'sign'),
    bytes(body),
  )
  return `${PREFIX}${Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/**
 * Checks a received `X-Svcdb-Signature` against the body, in constant time (WebCrypto
 * `verify`). For receivers of svcdb webhooks.
 *
 * @example
 * if (!(await verifyWebhookSignature(secret, rawBody, req.headers['x-svcdb-signature']))) reject()
 */
export async function verifyWebhookSignature(
  secret: string,
  body: string | Uint8Array,
  signature: string | null | undefined,
): Promise<boolean> {
  if (typeof signature !== 'string' || !signature.startsWith(PREFIX)) return false
  const hex = signature.slice(PREFIX.length)
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false
  const mac = new Uint8Array(32)
  for (let i = 0; i < 32; i++) mac[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return globalThis.crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), mac, bytes(body))
}
