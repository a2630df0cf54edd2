import { describe, expect, it } from 'vitest'
import { AuthError, isAuthError } from './errors'

describe('AuthError', () => {
  it('carries a code, a message and the wait of a rate limit', () => {
    const err = new AuthError('RATE_LIMITED', 'too many magic links requested', {
      retryAfterMs: 60_000,
    })
    expect(err).toMatchObject({ name: 'AuthError', code: 'RATE_LIMITED', retryAfterMs: 60_000 })
    expect(err).toBeInstanceOf(Error)
  })

  it('keeps the wrapped cause', () => {
    const cause = new Error('jose: signature verification failed')
    expect(new AuthError('INVALID_CREDENTIAL', 'invalid credential', { cause }).cause).toBe(cause)
  })

  it('is recognised by code, not by class', () => {
    expect(isAuthError(new AuthError('CONFLICT', 'username taken'), 'CONFLICT')).toBe(true)
    expect(isAuthError(new AuthError('CONFLICT', 'username taken'), 'NOT_FOUND')).toBe(false)
    expect(isAuthError({ name: 'AuthError', code: 'FORBIDDEN' })).toBe(true)
    expect(isAuthError({ name: 'Error', code: 'FORBIDDEN' })).toBe(false)
  })
})
