import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isEmailError } from './email-error'
import { createEmailMagicLinkSender } from './email-magic-link-sender'
import { createEmailService } from './email-service'
import type { EmailService } from './email-service'
import { openTempDatabase, startSmtpTestServer } from '../../test/kit'
import type { SmtpTestServer, TempDatabase } from '../../test/kit'

let temp: TempDatabase
let db: Database
let smtp: SmtpTestServer
let email: EmailService

beforeEach(async () => {
  temp = await openTempDatabase('svcdb-magic-')
  db = temp.db
  smtp = await startSmtpTestServer()
  email = createEmailService({ db })
})
afterEach(async () => {
  await smtp.close()
  await temp.destroy()
})

async function authWith(errors: unknown[]) {
  const auth = createAuth({
    store: createMemoryIdentityStore(),
    magicLinkSender: createEmailMagicLinkSender(email, { baseUrl: 'https://db.example.com/' }),
    onBackgroundError: (err) => errors.push(err),
  })
  await auth.bootstrap()
  await auth.users.create({ username: 'ada', email: 'ada@example.com' })
  return auth
}

describe('createEmailMagicLinkSender', () => {
  it('mails a sign-in link that verifies', async () => {
    await email.configure({
      provider: 'smtp',
      host: '127.0.0.1',
      port: smtp.port,
      username: 'mailer',
      password: 'secret',
      fromAddress: 'svcdb@example.com',
      tls: false,
    })
    const errors: unknown[] = []
    const auth = await authWith(errors)
    await auth.requestMagicLink('ada@example.com')
    await auth.idle()
    expect(errors).toEqual([])
    const mail = await smtp.nextMail()
    expect(mail.to).toEqual(['ada@example.com'])
    expect(mail.header('subject')).toBe('Your svcdb sign-in link')
    const link = /https:\/\/db\.example\.com\/auth\/magic-link\/verify\?code=([\w%-]+)/.exec(
      mail.decoded,
    )
    expect(link).not.toBeNull()
    const grant = await auth.verifyMagicLink(decodeURIComponent(link?.[1] ?? ''))
    expect(grant).toMatchObject({ token: expect.any(String) })
  })

  it('fails with NOT_CONFIGURED, reported by auth as a background error', async () => {
    const errors: unknown[] = []
    const auth = await authWith(errors)
    const answer = await auth.requestMagicLink('ada@example.com')
    await auth.idle()
    expect(answer.message).toEqual(expect.any(String))
    expect(errors).toHaveLength(1)
    expect(isEmailError(errors[0], 'NOT_CONFIGURED')).toBe(true)
    expect(smtp.received).toEqual([])
  })
})
