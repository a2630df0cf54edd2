import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { formatApiKey, keyPrefix, parseApiKey } from './api-key-string'

describe('api key string', () => {
  it('takes the prefix from the first 16 hex digits of the key id', () => {
    expect(keyPrefix('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe('3f2504e04f8911d3')
  })

  it('round-trips both forms, even when the secret contains underscores', () => {
    const secret = `_${'a_'.repeat(21)}`
    expect(secret).toHaveLength(43)
    for (const form of ['plain', 'self-service'] as const) {
      const s = formatApiKey(form, '0123456789abcdef', secret)
      expect(s.startsWith(form === 'plain' ? 'svc_0123' : 'svc_k_0123')).toBe(true)
      expect(parseApiKey(s)).toEqual({ form, prefix: '0123456789abcdef', secret })
    }
    const random = randomBytes(32).toString('base64url')
    expect(parseApiKey(formatApiKey('plain', 'ffffffffffffffff', random))?.secret).toBe(random)
  })

  it('refuses anything else', () => {
    const secret = 'A'.repeat(43)
    for (const bad of [
      '',
      `svc_0123456789abcde_${secret}`,
      `svc_0123456789ABCDEF_${secret}`,
      `svc_x_0123456789abcdef_${secret}`,
      `svc_0123456789abcdef_${secret}A`,
      `svc_0123456789abcdef_${'A'.repeat(42)}`,
      `svc_0123456789abcdef_${'A'.repeat(42)}=`,
      `rt_${secret}`,
      ` svc_0123456789abcdef_${secret}`,
    ]) {
      expect(parseApiKey(bad)).toBeUndefined()
    }
  })
})
