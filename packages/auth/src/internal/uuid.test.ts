import { describe, expect, it } from 'vitest'
import { cryptoRandomSource } from '../random-source'
import { isUuid, randomUuid } from './uuid'

describe('uuid', () => {
  it('draws version 4 UUIDs that differ', () => {
    const a = randomUuid(cryptoRandomSource)
    const b = randomUuid(cryptoRandomSource)
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(a).not.toBe(b)
  })

  it('sets the version and variant bits whatever the random bytes', () => {
    expect(randomUuid({ bytes: (n) => new Uint8Array(n).fill(0xff) })).toBe(
      'ffffffff-ffff-4fff-bfff-ffffffffffff',
    )
  })

  it('recognises UUIDs, the nil UUID included, and nothing else', () => {
    expect(isUuid('00000000-0000-0000-0000-000000000000')).toBe(true)
    expect(isUuid('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe(true)
    expect(isUuid('3f2504e0-4f89-11d3-9a0c-0305e82c330')).toBe(false)
    expect(isUuid('3f2504e04f8911d39a0c0305e82c3301')).toBe(false)
    expect(isUuid(42)).toBe(false)
  })
})
