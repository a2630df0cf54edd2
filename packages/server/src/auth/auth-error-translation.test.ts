import { AuthError } from '@svcdb/auth'
import { describe, expect, it } from 'vitest'
import { toErrorResponse } from '../errors/error-response'
import { translateAuthError } from './auth-error-translation'

const wire = (err: unknown) => toErrorResponse(translateAuthError(err))

describe('translateAuthError', () => {
  it('answers a token creation failure with 500 INTERNAL naming what failed', () => {
    const cause = new Error('HSM offline')
    const res = wire(new AuthError('TOKEN_CREATION_FAILED', 'could not sign', { cause }))
    expect(res).toMatchObject({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'could not create an access token' } },
      unexpected: true,
    })
    expect(JSON.stringify(res.body)).not.toContain('HSM')
  })

  it('names fields of input errors as the wire does', () => {
    expect(wire(new AuthError('INVALID_INPUT', 'expiresInDays: must be 1 to 3650'))).toMatchObject({
      status: 400,
      body: { error: { code: 'BAD_REQUEST', message: 'expires_in_days: must be 1 to 3650' } },
    })
    const unsafe = wire(new AuthError('UNSAFE_QUERY_FIELD', 'queryField: "password" is not safe'))
    expect(unsafe.status).toBe(400)
    expect(unsafe.body.error.message).toBe('query_field: "password" is not safe')
    expect(wire(new AuthError('INVALID_INPUT', 'rules[0] must have one entry')).body.error).toEqual(
      { code: 'BAD_REQUEST', message: 'rules[0] must have one entry' },
    )
  })

  it.each([
    ['INVALID_CREDENTIAL', 401],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
  ] as const)('leaves %s to the server mapping (%d)', (code, status) => {
    const err = new AuthError(code, 'no')
    expect(translateAuthError(err)).toBe(err)
    expect(wire(err).status).toBe(status)
  })

  it('keeps the retry delay of a rate limit', () => {
    const res = wire(new AuthError('RATE_LIMITED', 'slow down', { retryAfterMs: 61_000 }))
    expect(res).toMatchObject({ status: 429, headers: { 'Retry-After': '61' } })
  })

  it('passes other errors through', () => {
    const err = new Error('boom')
    expect(translateAuthError(err)).toBe(err)
  })
})
