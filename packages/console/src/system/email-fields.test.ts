import { describe, expect, it } from 'vitest'
import { EMPTY_SMTP_FIELDS, smtpBody, smtpFields } from './email-fields'

describe('SMTP settings', () => {
  it('turns fields into the body, dropping an empty sender name', () => {
    const fields = {
      ...EMPTY_SMTP_FIELDS,
      host: ' mail.example.com ',
      port: '465',
      username: 'svc',
      password: 'secret',
      fromAddress: 'db@example.com',
    }
    expect(smtpBody(fields)).toEqual({
      body: {
        provider: 'smtp',
        host: 'mail.example.com',
        port: 465,
        username: 'svc',
        password: 'secret',
        from_address: 'db@example.com',
        tls: true,
      },
    })
    expect(smtpBody({ ...fields, fromName: 'svcdb' })).toMatchObject({
      body: { from_name: 'svcdb' },
    })
  })

  it('refuses a port out of range or not a number', () => {
    expect(smtpBody({ ...EMPTY_SMTP_FIELDS, port: '70000' })).toHaveProperty('error')
    expect(smtpBody({ ...EMPTY_SMTP_FIELDS, port: 'x' })).toHaveProperty('error')
  })

  it('fills the form from a stored configuration, masked password included', () => {
    const view = {
      provider: 'smtp' as const,
      host: 'h',
      port: 25,
      username: 'u',
      password: '••••••••',
      from_address: 'a@b.c',
      tls: false,
    }
    expect(smtpFields(view)).toEqual({
      host: 'h',
      port: '25',
      username: 'u',
      password: '••••••••',
      fromAddress: 'a@b.c',
      fromName: '',
      tls: false,
    })
    expect(smtpBody(smtpFields(view))).toMatchObject({ body: { password: '••••••••', port: 25 } })
  })
})
