import { routes } from '@svcdb/contract'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { emailConfigFromBody, emailConfigView } from './email-views'

describe('emailConfigView', () => {
  it('writes every secret as the mask, whatever the configuration holds', () => {
    const smtp = emailConfigView({
      provider: 'smtp',
      host: 'mail.example.com',
      port: 587,
      username: 'mailer',
      password: 'hunter2',
      fromAddress: 'svcdb@example.com',
      tls: true,
    })
    expect(smtp).toMatchObject({ password: '••••••••', from_address: 'svcdb@example.com' })
    const oauth = emailConfigView({
      provider: 'oauth',
      oauthProvider: 'custom',
      clientId: 'client-id',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-token',
      fromAddress: 'svcdb@example.com',
      fromName: 'svcdb',
      host: 'smtp.corp.example',
      port: 465,
      tls: true,
    })
    expect(oauth).toEqual({
      provider: 'oauth',
      oauth_provider: 'custom',
      client_id: 'client-id',
      client_secret: '••••••••',
      refresh_token: '••••••••',
      from_address: 'svcdb@example.com',
      from_name: 'svcdb',
      host: 'smtp.corp.example',
      port: 465,
      tls: true,
    })
    expect(JSON.stringify([smtp, oauth])).not.toMatch(/hunter2|client-secret|refresh-token/)
  })
})

describe('emailConfigFromBody', () => {
  it('turns a validated body into the configuration and back into the same view', () => {
    const body = v.parse(routes.emailConfigPut.request.body, {
      provider: 'oauth',
      oauth_provider: 'gmail',
      client_id: 'client-id',
      client_secret: 'client-secret',
      refresh_token: 'refresh-token',
      from_address: 'svcdb@example.com',
    })
    const config = emailConfigFromBody(body)
    expect(config).toEqual({
      provider: 'oauth',
      oauthProvider: 'gmail',
      clientId: 'client-id',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-token',
      fromAddress: 'svcdb@example.com',
    })
    expect(emailConfigView(config)).toEqual({
      ...body,
      client_secret: '••••••••',
      refresh_token: '••••••••',
    })
  })
})
