import { AuthError } from '@svcdb/auth'
import { describe, expect, it } from 'vitest'
import { toErrorResponse } from './error-response'
import { authMessageForWire } from './wire-field-names'

describe('toErrorResponse of auth errors', () => {
  it('answers a token creation failure 500 INTERNAL naming what failed, never the cause', () => {
    const cause = new Error('HSM offline')
    const res = toErrorResponse(new AuthError('TOKEN_CREATION_FAILED', 'could not sign', { cause }))
    expect(res).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'could not create an access token' } },
      unexpected: true,
    })
    expect(JSON.stringify(res.body)).not.toMatch(/HSM|sign/)
  })

  it('names the field of an input error as the wire does', () => {
    const invalid = new AuthError(
      'INVALID_INPUT',
      'expiresInDays: must be an integer from 1 to 3650',
    )
    expect(toErrorResponse(invalid)).toEqual({
      status: 400,
      body: {
        error: {
          code: 'BAD_REQUEST',
          message: 'expires_in_days: must be an integer from 1 to 3650',
        },
      },
      unexpected: false,
    })
    const unsafe = new AuthError('UNSAFE_QUERY_FIELD', 'queryField: "password" is not one of …')
    expect(toErrorResponse(unsafe).body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'query_field: "password" is not one of …',
    })
  })

  it('leaves other errors and codes with their message as it is', () => {
    expect(toErrorResponse(new AuthError('NOT_FOUND', 'userId: no such user')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'userId: no such user',
    })
    expect(toErrorResponse(new Error('queryField: boom')).body.error.message).toBe(
      'internal server error',
    )
  })
})

describe('authMessageForWire', () => {
  it.each([
    ['userId: must be a UUID', 'user_id: must be a UUID'],
    ['isActive: must be a boolean', 'is_active: must be a boolean'],
    [
      'defaultAllow: must be an absolute path pattern or empty',
      'default_allow: must be an absolute path pattern or empty',
    ],
    ['defaultDeny: x', 'default_deny: x'],
    ['queryOperator: on tags, must be one of has', 'query_operator: on tags, must be one of has'],
    ['queryValue: must list values', 'query_value: must list values'],
  ])('renames the field %j starts with', (message, wire) => {
    expect(authMessageForWire(message)).toBe(wire)
  })

  it.each([
    'rules[0] must have one entry',
    'tags.2: at most 64 characters',
    'userIds: must be UUIDs',
    'key id must be a UUID',
    'must be an object with any of username, email, isActive and tags',
    'queryFieldX: not a field',
  ])('keeps %j as it is', (message) => {
    expect(authMessageForWire(message)).toBe(message)
  })
})
