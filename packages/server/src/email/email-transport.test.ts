import { describe, expect, it } from 'vitest'
import type { EmailConfig, OAuthEmailConfig, SmtpEmailConfig } from './email-config'
import { createEmailTransport, emailTransportOptions } from './email-transport'

const smtp: SmtpEmailConfig = {
  provider: 'smtp',
  host: 'mail.example.com',
  port: 587,
  username: 'mailer',
  password: 'hunter2',
  fromAddress: 'svcdb@example.com',
  tls: true,
}
const oauth = {
  provider: 'oauth',
  clientId: 'client-id',
  clientSecret: 'client-secret',
  refreshToken: 'refresh-token',
  fromAddress: 'svcdb@example.com',
} as const

/** The SMTP transport nodemailer built, as it will connect and log in. */
function resolved(config: EmailConfig) {
  const inner = createEmailTransport(config).transporter as unknown as {
    options: { host?: string; port?: number; secure?: boolean; requireTLS?: boolean }
    auth?: { type: string; user: string; oauth2?: { options: Record<string, unknown> } }
  }
  return inner
}

describe('emailTransportOptions', () => {
  it('logs in with the SMTP user and password and bounds every step by 10 s', () => {
    expect(emailTransportOptions(smtp)).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      auth: { user: 'mailer', pass: 'hunter2' },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 10_000,
      dnsTimeout: 10_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    })
    expect(emailTransportOptions(smtp, { timeoutMs: 250 })).toMatchObject({
      connectionTimeout: 250,
      greetingTimeout: 250,
      socketTimeout: 250,
    })
    expect(() => emailTransportOptions(smtp, { timeoutMs: 0 })).toThrow(RangeError)
  })

  it.each([
    [465, true, { secure: true, requireTLS: false, ignoreTLS: false }],
    [587, true, { secure: false, requireTLS: true, ignoreTLS: false }],
    [25, false, { secure: false, requireTLS: false, ignoreTLS: true }],
    [465, false, { secure: false, requireTLS: false, ignoreTLS: true }],
  ])('on port %i with tls %s uses %j', (port, tls, expected) => {
    expect(emailTransportOptions({ ...smtp, port, tls })).toMatchObject(expected)
  })

  it('sends Gmail through the gmail service with XOAUTH2 as the from address', () => {
    const config: OAuthEmailConfig = { ...oauth, oauthProvider: 'gmail' }
    expect(emailTransportOptions(config)).toMatchObject({
      service: 'gmail',
      auth: {
        type: 'OAuth2',
        user: 'svcdb@example.com',
        clientId: 'client-id',
        clientSecret: 'client-secret',
        refreshToken: 'refresh-token',
        requestTimeout: 10_000,
      },
    })
    const inner = resolved(config)
    expect(inner.options).toMatchObject({ host: 'smtp.gmail.com', port: 465, secure: true })
    expect(inner.auth).toMatchObject({ type: 'OAUTH2', user: 'svcdb@example.com' })
    expect(inner.auth?.oauth2?.options).toMatchObject({
      clientId: 'client-id',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-token',
      accessUrl: 'https://accounts.google.com/o/oauth2/token',
    })
  })

  it("sends Outlook through smtp.office365.com:587 with STARTTLS and Microsoft's token endpoint", () => {
    const inner = resolved({ ...oauth, oauthProvider: 'outlook' })
    expect(inner.options).toMatchObject({
      host: 'smtp.office365.com',
      port: 587,
      secure: false,
      requireTLS: true,
    })
    expect(inner.auth).toMatchObject({ type: 'OAUTH2', user: 'svcdb@example.com' })
    expect(inner.auth?.oauth2?.options).toMatchObject({
      refreshToken: 'refresh-token',
      accessUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    })
  })

  it('sends a custom OAuth provider to the host and port given', () => {
    const inner = resolved({
      ...oauth,
      oauthProvider: 'custom',
      host: 'smtp.corp.example',
      port: 465,
      tls: true,
    })
    expect(inner.options).toMatchObject({ host: 'smtp.corp.example', port: 465, secure: true })
    expect(inner.auth).toMatchObject({ type: 'OAUTH2', user: 'svcdb@example.com' })
  })
})
