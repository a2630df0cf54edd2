import { describe, expect, it } from 'vitest'
import { digestSecret, digestsEqual } from './secret-digest'

describe('secret digest', () => {
  it('is the base64url SHA-256 of the secret', () => {
    // SHA-256("abc") = ba7816bf…
    expect(Buffer.from(digestSecret('abc'), 'base64url').toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('compares digests for equality', () => {
    expect(digestsEqual(digestSecret('a'), digestSecret('a'))).toBe(true)
    expect(digestsEqual(digestSecret('a'), digestSecret('b'))).toBe(false)
    expect(digestsEqual('short', digestSecret('a'))).toBe(false)
  })
})
