import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { describe, expect, it } from 'vitest'
import { createEmailMagicLinkSender } from '../email/email-magic-link-sender'
import { createEmailService } from '../email/email-service'
import { startSmtpTestServer } from '../../test/kit'
import { consoleMagicLinkUrl } from './console-magic-link'

describe('consoleMagicLinkUrl', () => {
  it('opens the console with the code as magic_link_code, escaped', () => {
    expect(consoleMagicLinkUrl('https://db.example.com', 'abc')).toBe(
      'https://db.example.com/console/?magic_link_code=abc',
    )
    expect(consoleMagicLinkUrl('http://127.0.0.1:6830//', 'a+b/c=')).toBe(
      'http://127.0.0.1:6830/console/?magic_link_code=a%2Bb%2Fc%3D',
    )
  })
})

describe('the mailed magic link', () => {
  it('opens the console when the server serves it, else the verify URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-console-link-'))
    const db = await Database.open({ path: join(dir, 'data') })
    const smtp = await startSmtpTestServer()
    try {
      const email = createEmailService({ db })
      await email.configure({
        provider: 'smtp',
        host: '127.0.0.1',
        port: smtp.port,
        username: 'mailer',
        password: 'secret',
        fromAddress: 'svcdb@example.com',
        tls: false,
      })
      const message = { email: 'ada@example.com', userId: 'u1', code: 'c0de', expiresAt: 0 }
      const baseUrl = 'https://db.example.com'
      await createEmailMagicLinkSender(email, { baseUrl, console: true }).send(message)
      const withConsole = (await smtp.nextMail()).decoded
      expect(withConsole).toContain('https://db.example.com/console/?magic_link_code=c0de')
      expect(withConsole).not.toContain('/auth/magic-link/verify')
      await createEmailMagicLinkSender(email, { baseUrl }).send(message)
      const without = (await smtp.nextMail()).decoded
      expect(without).toContain('https://db.example.com/auth/magic-link/verify?code=c0de')
      expect(without).not.toContain('/console/')
    } finally {
      await smtp.close()
      await db.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
