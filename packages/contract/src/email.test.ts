import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  EMAIL_SECRET_MASK,
  emailConfigSchema,
  emailConfigViewSchema,
  emailTestBodySchema,
  emailTestResultSchema,
} from './email'
import { routes } from './routes'

const smtp = {
  provider: 'smtp',
  host: 'smtp.example.com',
  port: 587,
  username: 'mailer',
  password: 'hunter2',
  from_address: 'svcdb@example.com',
}
const oauth = {
  provider: 'oauth',
  oauth_provider: 'gmail',
  client_id: 'client',
  client_secret: 'secret',
  refresh_token: 'refresh',
  from_address: 'svcdb@example.com',
}

/** The dotted paths of the issues of parsing `value`, or `[]` when it is valid. */
function issuePaths(schema: v.GenericSchema, value: unknown): string[] {
  const result = v.safeParse(schema, value)
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '')
}

describe('emailConfigSchema', () => {
  it('accepts the SMTP form and turns tls on by default', () => {
    expect(v.parse(emailConfigSchema, smtp)).toEqual({ ...smtp, tls: true })
    expect(v.parse(emailConfigSchema, { ...smtp, tls: false, from_name: 'svcdb' })).toEqual({
      ...smtp,
      tls: false,
      from_name: 'svcdb',
    })
  })

  it.each(['gmail', 'outlook'])('accepts the OAuth form for %s without a host', (provider) => {
    expect(v.parse(emailConfigSchema, { ...oauth, oauth_provider: provider })).toEqual({
      ...oauth,
      oauth_provider: provider,
    })
  })

  it('accepts a custom OAuth provider only with a host and a port', () => {
    const custom = { ...oauth, oauth_provider: 'custom' }
    expect(issuePaths(emailConfigSchema, custom)).toEqual(['host', 'port'])
    expect(v.parse(emailConfigSchema, { ...custom, host: 'mail.example.com', port: 465 })).toEqual({
      ...custom,
      host: 'mail.example.com',
      port: 465,
      tls: true,
    })
  })

  it.each([
    [{ ...smtp, provider: 'pop3' }, ['provider']],
    [{ ...smtp, provider: undefined }, ['provider']],
    [{ ...smtp, password: undefined }, ['password']],
    [{ ...smtp, host: '' }, ['host']],
    [{ ...smtp, host: 'smtp example' }, ['host']],
    [{ ...smtp, port: 0 }, ['port']],
    [{ ...smtp, port: 65536 }, ['port']],
    [{ ...smtp, port: 25.5 }, ['port']],
    [{ ...smtp, port: '25' }, ['port']],
    [{ ...smtp, tls: 'yes' }, ['tls']],
    [{ ...smtp, from_address: 'not-an-address' }, ['from_address']],
    [{ ...smtp, from_name: 'a\r\nBcc: x@example.com' }, ['from_name']],
    [{ ...smtp, fromAddress: 'svcdb@example.com' }, ['fromAddress']],
    [{ ...oauth, oauth_provider: 'yahoo' }, ['oauth_provider']],
    [{ ...oauth, refresh_token: '' }, ['refresh_token']],
    [{ ...oauth, host: 'smtp.gmail.com' }, ['host']],
  ])('rejects %j at %j', (body, paths) => {
    expect(issuePaths(emailConfigSchema, body)).toEqual(paths)
  })
})

describe('emailConfigViewSchema', () => {
  it('accepts secrets only as the mask of eight bullets', () => {
    expect(EMAIL_SECRET_MASK).toBe('••••••••')
    const masked = { ...smtp, password: EMAIL_SECRET_MASK, tls: true }
    expect(v.is(emailConfigViewSchema, masked)).toBe(true)
    expect(v.is(emailConfigViewSchema, { ...masked, password: 'hunter2' })).toBe(false)
    const oauthView = {
      ...oauth,
      client_secret: EMAIL_SECRET_MASK,
      refresh_token: EMAIL_SECRET_MASK,
    }
    expect(v.is(emailConfigViewSchema, oauthView)).toBe(true)
    expect(v.is(emailConfigViewSchema, { ...oauthView, refresh_token: 'refresh' })).toBe(false)
  })
})

describe('emailTestBodySchema', () => {
  it('takes one email address, trimmed', () => {
    expect(v.parse(emailTestBodySchema, { to: ' ops@example.com ' })).toEqual({
      to: 'ops@example.com',
    })
    expect(issuePaths(emailTestBodySchema, { to: 'ops' })).toEqual(['to'])
    expect(issuePaths(emailTestBodySchema, {})).toEqual(['to'])
  })
})

describe('emailTestResultSchema', () => {
  it('pairs sent true with a message and sent false with an error', () => {
    expect(v.is(emailTestResultSchema, { sent: true, message: 'sent' })).toBe(true)
    expect(v.is(emailTestResultSchema, { sent: false, error: 'refused' })).toBe(true)
    expect(v.is(emailTestResultSchema, { sent: true, error: 'refused' })).toBe(false)
  })
})

describe('email routes', () => {
  it('are reserved to root', () => {
    const { emailConfigGet, emailConfigPut, emailTest } = routes
    expect(
      [emailConfigGet, emailConfigPut, emailTest].map((r) => [r.method, r.path, r.auth]),
    ).toEqual([
      ['GET', '/system/email-config', 'root'],
      ['PUT', '/system/email-config', 'root'],
      ['POST', '/system/email-test', 'root'],
    ])
  })
})
