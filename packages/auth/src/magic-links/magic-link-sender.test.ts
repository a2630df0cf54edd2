import { describe, expect, it } from 'vitest'
import { createLoggingMagicLinkSender, magicLinkUrl } from './magic-link-sender'

describe('magic link sender', () => {
  it('builds the verification link, encoding the code', () => {
    expect(magicLinkUrl('http://127.0.0.1:6830/', 'a+b')).toBe(
      'http://127.0.0.1:6830/auth/magic-link/verify?code=a%2Bb',
    )
  })

  it('logs the link in development instead of mailing it', async () => {
    const lines: string[] = []
    const sender = createLoggingMagicLinkSender({
      baseUrl: 'http://localhost:6830',
      log: (line) => lines.push(line),
    })
    await sender.send({ email: 'a@example.com', userId: 'u', code: 'abc', expiresAt: 1 })
    expect(lines).toEqual([
      'magic link for a@example.com: http://localhost:6830/auth/magic-link/verify?code=abc',
    ])
  })
})
