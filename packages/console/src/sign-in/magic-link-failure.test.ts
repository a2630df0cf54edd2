import { ClientError } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { magicLinkFailure, REFUSED_MAGIC_LINK } from './magic-link-failure'

describe('magicLinkFailure', () => {
  it('says a refused or malformed code is invalid, expired or used', () => {
    const used = new ClientError('UNAUTHORIZED', 'invalid, expired or used magic link code', {
      status: 401,
    })
    const empty = new ClientError('VALIDATION_FAILED', 'code: required', { status: 400 })
    expect(magicLinkFailure(used)).toBe(REFUSED_MAGIC_LINK)
    expect(magicLinkFailure(empty)).toBe(REFUSED_MAGIC_LINK)
    expect(REFUSED_MAGIC_LINK).toMatch(/invalid, expired or already used/)
  })

  it('gives any other failure its own message', () => {
    const offline = new ClientError('NETWORK_ERROR', 'fetch failed', { status: 0 })
    expect(magicLinkFailure(offline)).toBe('The server cannot be reached.')
    const busy = new ClientError('RATE_LIMITED', 'too many requests', { status: 429 })
    expect(magicLinkFailure(busy)).toBe('too many requests')
  })
})
