import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  accessGrantSchema,
  magicLinkRequestSchema,
  magicLinkVerifyQuerySchema,
  refreshRequestSchema,
  tokenGrantSchema,
  tokenRequestSchema,
} from './token'

describe('token request schemas', () => {
  it('take the credential as a string, leaving its format to the server (401, not 400)', () => {
    expect(v.is(tokenRequestSchema, { api_key: 'garbage' })).toBe(true)
    expect(v.is(refreshRequestSchema, { refresh_token: 'garbage' })).toBe(true)
  })

  it.each([undefined, {}, { api_key: 1 }, { api_key: 'x', extra: 1 }])(
    'refuse the token body %j',
    (body) => {
      expect(v.is(tokenRequestSchema, body)).toBe(false)
    },
  )

  it('require an email and a code', () => {
    expect(v.is(magicLinkRequestSchema, { email: 'a@b.example' })).toBe(true)
    expect(v.is(magicLinkRequestSchema, { email: '' })).toBe(false)
    expect(v.is(magicLinkVerifyQuerySchema, { code: 'abc' })).toBe(true)
    expect(v.is(magicLinkVerifyQuerySchema, {})).toBe(false)
  })
})

describe('grant schemas', () => {
  const grant = { token: 'eyJ.x.y', expires_in: 3600, refresh_token: 'rt_abc' }

  it('carry a JWT, integer seconds and an rt_ refresh token', () => {
    expect(v.is(tokenGrantSchema, grant)).toBe(true)
    expect(v.is(tokenGrantSchema, { ...grant, expires_in: 3600.5 })).toBe(false)
    expect(v.is(tokenGrantSchema, { ...grant, refresh_token: 'abc' })).toBe(false)
  })

  it('give no refresh token for a magic link', () => {
    expect(v.is(accessGrantSchema, { token: 'eyJ.x.y', expires_in: 3600 })).toBe(true)
    expect(v.is(accessGrantSchema, grant)).toBe(false)
  })
})
