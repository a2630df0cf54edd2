import { describe, expect, it } from 'vitest'
import { shortHash } from './short-hash'

describe('shortHash', () => {
  it('keeps the first 12 digits of a full hash', () => {
    expect(shortHash('ab'.repeat(32))).toBe('abababababab')
  })

  it('leaves HEAD, names and short values whole', () => {
    for (const value of ['HEAD', 'nightly-2026-11-25', '0123abcd'])
      expect(shortHash(value)).toBe(value)
  })
})
