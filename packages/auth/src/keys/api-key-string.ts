/** How a key string shows its kind: `svc_k_…` for self-service keys, `svc_…` otherwise. */
export type KeyStringForm = 'plain' | 'self-service'

/** The parts of a well-formed key string. */
export interface ParsedApiKey {
  form: KeyStringForm
  /** 16 lower-case hex digits: the start of the key id, used for direct lookup. */
  prefix: string
  /** 43 base64url characters: 32 random bytes. */
  secret: string
}

// The secret may contain '_' itself, so the parts are found by position, never by splitting.
const KEY_PATTERN = /^svc_(k_)?([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/

/** The lookup prefix of a key id: the first 16 hex digits of the UUID without dashes. */
export function keyPrefix(keyId: string): string {
  return keyId.replaceAll('-', '').slice(0, 16).toLowerCase()
}

/**
 * The key string the holder is given: `svc_<prefix>_<secret>` or, for self-service keys,
 * `svc_k_<prefix>_<secret>`.
 */
export function formatApiKey(form: KeyStringForm, prefix: string, secret: string): string {
  return `svc_${form === 'self-service' ? 'k_' : ''}${prefix}_${secret}`
}

/** The parts of `value`, or `undefined` when it is not a well-formed key string. */
export function parseApiKey(value: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(value)
  if (match === null) return undefined
  const [, k, prefix = '', secret = ''] = match
  return { form: k === undefined ? 'plain' : 'self-service', prefix, secret }
}
