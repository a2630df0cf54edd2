import { errorBodySchema, routes } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEmailService } from '../../email/email-service'
import { closedPort, startSmtpTestServer, startTestApp } from '../../../test/kit'
import type { SmtpTestServer, TestApp } from '../../../test/kit'
import { disabledAuthenticator } from '../../routing/principal'
import { emailRouteHandlers } from './email-route-handlers'

const MASK = '••••••••'

let kit: TestApp
let smtp: SmtpTestServer
let app: TestApp['app']

beforeEach(async () => {
  kit = await startTestApp(({ db }) => emailRouteHandlers({ email: createEmailService({ db }) }), {
    authenticator: disabledAuthenticator,
  })
  app = kit.app
  smtp = await startSmtpTestServer({ users: { mailer: 'hunter2' } })
})
afterEach(async () => {
  await smtp.close()
  await kit.close()
})

const send = (method: string, body: unknown) => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const putConfig = (body: unknown) => app.request('/system/email-config', send('PUT', body))
const testEmail = (body: unknown) => app.request('/system/email-test', send('POST', body))

// A valid SMTP form, built before any server starts (tables of invalid variants use it).
const baseForm = {
  provider: 'smtp',
  host: '127.0.0.1',
  port: 2525,
  username: 'mailer',
  password: 'hunter2',
  from_address: 'svcdb@example.com',
  tls: false,
}
const invalid = (overrides: Record<string, unknown>) => ({ ...baseForm, ...overrides })
/** The SMTP form pointing at the test server. */
const smtpForm = (overrides: Record<string, unknown> = {}) => ({
  ...baseForm,
  port: smtp.port,
  ...overrides,
})

async function errorOf(res: Response, status: number) {
  expect(res.status).toBe(status)
  return v.parse(errorBodySchema, await res.json()).error
}

async function configOf(res: Response) {
  expect(res.status).toBe(200)
  const body: unknown = await res.json()
  // The contract's view accepts secrets only as the mask.
  expect(v.is(routes.emailConfigGet.response, body), JSON.stringify(body)).toBe(true)
  return body
}

describe('GET /system/email-config', () => {
  it('answers 404 before any configuration is stored', async () => {
    const error = await errorOf(await app.request('/system/email-config'), 404)
    expect(error).toEqual({ code: 'NOT_FOUND', message: 'email is not configured' })
  })
})

describe('PUT /system/email-config', () => {
  it('stores the SMTP form and reads it back with the password masked', async () => {
    const form = smtpForm({ from_name: 'svcdb' })
    const expected = { ...form, password: MASK }
    expect(await configOf(await putConfig(form))).toEqual(expected)
    expect(await configOf(await app.request('/system/email-config'))).toEqual(expected)
    expect(JSON.stringify(expected)).not.toContain('hunter2')
  })

  it('turns tls on when the SMTP form leaves it out', async () => {
    const { tls: _tls, ...form } = smtpForm()
    expect(await configOf(await putConfig(form))).toMatchObject({ tls: true })
  })

  it('stores the OAuth form with the client secret and refresh token masked', async () => {
    const form = {
      provider: 'oauth',
      oauth_provider: 'outlook',
      client_id: 'client-id',
      client_secret: 'client-secret',
      refresh_token: 'refresh-token',
      from_address: 'svcdb@example.com',
    }
    const expected = { ...form, client_secret: MASK, refresh_token: MASK }
    expect(await configOf(await putConfig(form))).toEqual(expected)
    expect(await configOf(await app.request('/system/email-config'))).toEqual(expected)
    const custom = { ...form, oauth_provider: 'custom', host: 'smtp.corp.example', port: 2525 }
    expect(await configOf(await putConfig(custom))).toEqual({
      ...custom,
      client_secret: MASK,
      refresh_token: MASK,
      tls: true,
    })
  })

  it('keeps the stored password when the mask is written back', async () => {
    await configOf(await putConfig(smtpForm()))
    await configOf(await putConfig(smtpForm({ password: MASK, from_name: 'ops' })))
    expect(await (await testEmail({ to: 'ada@example.com' })).json()).toMatchObject({ sent: true })
    expect((await smtp.nextMail()).user).toBe('mailer')
  })

  it('refuses the mask when no password is stored', async () => {
    const error = await errorOf(await putConfig(smtpForm({ password: MASK })), 400)
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.details).toEqual([{ path: 'body.password', message: expect.any(String) }])
    await errorOf(await app.request('/system/email-config'), 404)
  })

  it.each([
    ['a missing field', invalid({ password: undefined }), ['body.password']],
    ['a port out of range', invalid({ port: 70000 }), ['body.port']],
    ['a port that is not a number', invalid({ port: '25' }), ['body.port']],
    ['an unknown provider', invalid({ provider: 'pop3' }), ['body.provider']],
    [
      'an unknown OAuth provider',
      { provider: 'oauth', oauth_provider: 'yahoo' },
      ['body.oauth_provider'],
    ],
    ['a bad from address', invalid({ from_address: 'svcdb' }), ['body.from_address']],
    ['no body', undefined, ['body']],
  ])('answers 400 VALIDATION_FAILED with details for %s', async (_name, body, paths) => {
    const res =
      body === undefined
        ? await app.request('/system/email-config', { method: 'PUT' })
        : await putConfig(body)
    const error = await errorOf(res, 400)
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.details?.map((d) => d.path)).toEqual(paths)
    await errorOf(await app.request('/system/email-config'), 404)
  })
})

describe('POST /system/email-test', () => {
  it('sends a test message through the stored configuration', async () => {
    await configOf(await putConfig(smtpForm()))
    const res = await testEmail({ to: 'ada@example.com' })
    expect(res.status).toBe(200)
    const body: unknown = await res.json()
    expect(v.parse(routes.emailTest.response, body)).toEqual({
      sent: true,
      message: expect.stringContaining('ada@example.com'),
    })
    const mail = await smtp.nextMail()
    expect(mail.user).toBe('mailer')
    expect(mail.header('to')).toBe('ada@example.com')
    expect(mail.header('subject')).toBe('svcdb test email')
    expect(mail.decoded).toContain('the email configuration works')
  })

  it('answers 200 sent false when the server refuses the login', async () => {
    await configOf(await putConfig(smtpForm({ password: 'wrong' })))
    const res = await testEmail({ to: 'ada@example.com' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ sent: false, error: expect.stringMatching(/535|login/i) })
    expect(smtp.received).toEqual([])
  })

  it('answers 200 sent false with the refusal when nothing listens', async () => {
    await configOf(await putConfig(smtpForm({ port: await closedPort() })))
    const res = await testEmail({ to: 'ada@example.com' })
    expect(res.status).toBe(200)
    // The refusal itself answers: a timeout would say "timeout" or "aborted", not ECONNREFUSED.
    expect(await res.json()).toEqual({
      sent: false,
      error: expect.stringContaining('ECONNREFUSED'),
    })
  })

  it('answers 200 sent false before email is configured', async () => {
    const res = await testEmail({ to: 'ada@example.com' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      sent: false,
      error: expect.stringContaining('not configured'),
    })
  })

  it.each([[{ to: 'not-an-address' }], [{}], [{ to: 42 }]])(
    'answers 400 VALIDATION_FAILED for %j',
    async (body) => {
      const error = await errorOf(await testEmail(body), 400)
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.details?.map((d) => d.path)).toEqual(['body.to'])
    },
  )
})
