import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import type { AddressInfo, Server, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EMAIL_SECRET_MASK } from './email-config'
import type { SmtpEmailConfig } from './email-config'
import { isEmailError } from './email-error'
import { createEmailService } from './email-service'
import { closedPort, startSmtpTestServer } from '../../test/kit'
import type { SmtpTestServer } from '../../test/kit'

let dir: string
let db: Database
let smtp: SmtpTestServer

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-email-'))
  db = await Database.open({ path: join(dir, 'data') })
  smtp = await startSmtpTestServer({ users: { mailer: 'hunter2' } })
})
afterEach(async () => {
  await smtp.close()
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

function smtpConfig(overrides: Partial<SmtpEmailConfig> = {}): SmtpEmailConfig {
  return {
    provider: 'smtp',
    host: '127.0.0.1',
    port: smtp.port,
    username: 'mailer',
    password: 'hunter2',
    fromAddress: 'svcdb@example.com',
    fromName: 'svcdb server',
    tls: false,
    ...overrides,
  }
}

const HOUR_MS = 3_600_000
/** How nodemailer reports a step that timed out (connect, greeting, an idle socket). */
const STEP_TIMEOUT = /greeting never received|connection timeout|^.*: timeout$/i
/** How nodemailer reports a send stopped by its abort signal, i.e. the whole-send bound. */
const WHOLE_SEND_ABORT = /message sending aborted/i

/** Runs `body` against a TCP server whose connections `serve` handles (and never finishes). */
async function withStallingServer(
  serve: (socket: Socket) => void,
  body: (port: number) => Promise<void>,
): Promise<void> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => undefined)
    serve(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    await body((server.address() as AddressInfo).port)
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('createEmailService', () => {
  it('reports no configuration and refuses to send before one is stored', async () => {
    const email = createEmailService({ db })
    expect(await email.isConfigured()).toBe(false)
    expect(await email.getConfig()).toBeUndefined()
    const err: unknown = await email
      .send({ to: 'ada@example.com', subject: 's', text: 't' })
      .catch((e: unknown) => e)
    expect(isEmailError(err, 'NOT_CONFIGURED')).toBe(true)
    expect(await email.test('ada@example.com')).toEqual({
      sent: false,
      error: expect.stringContaining('not configured'),
    })
  })

  it('sends through the stored SMTP server, logged in, from the configured sender', async () => {
    const email = createEmailService({ db })
    await email.configure(smtpConfig())
    expect(await email.isConfigured()).toBe(true)
    const sent = await email.send({
      to: 'ada@example.com',
      subject: 'Hello Ada',
      text: 'The body of the message.',
      html: '<p>The body of the message.</p>',
    })
    expect(sent.response).toMatch(/^250/)
    const mail = await smtp.nextMail()
    expect(mail.user).toBe('mailer')
    expect(mail.from).toBe('svcdb@example.com')
    expect(mail.to).toEqual(['ada@example.com'])
    expect(mail.header('to')).toBe('ada@example.com')
    expect(mail.header('subject')).toBe('Hello Ada')
    expect(mail.header('from')).toBe('svcdb server <svcdb@example.com>')
    expect(mail.decoded).toContain('The body of the message.')
    expect(mail.decoded).toContain('<p>The body of the message.</p>')
  })

  it('keeps secrets stored but masked when read, and across a restart', async () => {
    const email = createEmailService({ db })
    const saved = await email.configure(smtpConfig())
    expect(saved).toEqual({ ...smtpConfig(), password: EMAIL_SECRET_MASK })
    expect(await email.getConfig()).toEqual({ ...smtpConfig(), password: EMAIL_SECRET_MASK })
    await db.close()
    db = await Database.open({ path: join(dir, 'data') })
    const restarted = createEmailService({ db })
    expect(await restarted.getConfig()).toEqual({ ...smtpConfig(), password: EMAIL_SECRET_MASK })
    expect(await restarted.test('ada@example.com')).toMatchObject({ sent: true })
    expect((await smtp.nextMail()).user).toBe('mailer')
  })

  it('keeps the stored secret when the mask is written back, and refuses a mask for none', async () => {
    const email = createEmailService({ db })
    const masked = smtpConfig({ password: EMAIL_SECRET_MASK })
    const err: unknown = await email.configure(masked).catch((e: unknown) => e)
    expect(isEmailError(err, 'INVALID_CONFIG')).toBe(true)
    expect((err as { field?: string }).field).toBe('password')
    expect(await email.isConfigured()).toBe(false)

    await email.configure(smtpConfig())
    await email.configure({ ...masked, fromName: 'renamed' })
    expect(await email.test('ada@example.com')).toMatchObject({ sent: true })
    const mail = await smtp.nextMail()
    expect(mail.user).toBe('mailer')
    expect(mail.header('from')).toBe('renamed <svcdb@example.com>')
  })

  it('sends through the new server once the configuration changes', async () => {
    const other = await startSmtpTestServer()
    try {
      const email = createEmailService({ db })
      await email.configure(smtpConfig())
      await email.send({ to: 'ada@example.com', subject: 'first', text: '1' })
      await email.configure(smtpConfig({ port: other.port }))
      await email.send({ to: 'ada@example.com', subject: 'second', text: '2' })
      expect(smtp.received.map((m) => m.header('subject'))).toEqual(['first'])
      expect(other.received.map((m) => m.header('subject'))).toEqual(['second'])
    } finally {
      await other.close()
    }
  })

  it('reports a refused login as a failed test, not an exception', async () => {
    const email = createEmailService({ db })
    await email.configure(smtpConfig({ password: 'wrong' }))
    const outcome = await email.test('ada@example.com')
    expect(outcome).toEqual({ sent: false, error: expect.stringMatching(/invalid login|535/i) })
    expect(outcome.sent === false && outcome.error).not.toContain('wrong')
    expect(smtp.received).toEqual([])
  })

  it('reports a closed port at once, from the refusal rather than a timeout', async () => {
    // With hour-long timeouts nothing but the refusal itself can end this send.
    const email = createEmailService({ db, timeoutMs: HOUR_MS, sendTimeoutMs: HOUR_MS })
    await email.configure(smtpConfig({ port: await closedPort() }))
    expect(await email.test('ada@example.com')).toEqual({
      sent: false,
      error: expect.stringContaining('ECONNREFUSED'),
    })
  })

  it('never sends in the clear when tls is on and the server offers no STARTTLS', async () => {
    const email = createEmailService({ db })
    await email.configure(smtpConfig({ tls: true }))
    const outcome = await email.test('ada@example.com')
    expect(outcome).toEqual({ sent: false, error: expect.stringMatching(/STARTTLS/i) })
    expect(smtp.received).toEqual([])
  })

  it('gives up on a server that accepts the connection and never greets', async () => {
    await withStallingServer(
      () => undefined,
      async (port) => {
        // Only a per-step timeout can end this send: the whole-send bound is an hour away.
        const email = createEmailService({ db, timeoutMs: 100, sendTimeoutMs: HOUR_MS })
        await email.configure(smtpConfig({ port }))
        const outcome = await email.test('ada@example.com')
        // Greeting never received (or, on a stalled loop, Connection timeout): not an abort.
        expect(outcome).toEqual({ sent: false, error: expect.stringMatching(STEP_TIMEOUT) })
      },
    )
  })

  it('bounds a whole send even when the server keeps trickling bytes', async () => {
    // Greets, then answers EHLO one byte at a time, never finishing the line: no step times out.
    const trickle = (socket: Socket) => {
      socket.write('220 slow.example ESMTP\r\n')
      socket.once('data', () => {
        const timer = setInterval(() => socket.write('2'), 50)
        socket.on('close', () => clearInterval(timer))
      })
    }
    await withStallingServer(trickle, async (port) => {
      // No step can time out within the hour, so only the whole-send bound can end this send.
      const email = createEmailService({ db, timeoutMs: HOUR_MS, sendTimeoutMs: 200 })
      await email.configure(smtpConfig({ port }))
      expect(await email.test('ada@example.com')).toEqual({
        sent: false,
        error: expect.stringMatching(WHOLE_SEND_ABORT),
      })
    })
  })

  it('refuses a whole-send bound that is not a positive number', () => {
    expect(() => createEmailService({ db, sendTimeoutMs: 0 })).toThrow(RangeError)
    expect(() => createEmailService({ db, sendTimeoutMs: Number.NaN })).toThrow(RangeError)
  })

  it('stores the OAuth form with both secrets masked on read', async () => {
    const email = createEmailService({ db })
    const config = {
      provider: 'oauth',
      oauthProvider: 'gmail',
      clientId: 'client-id',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-token',
      fromAddress: 'svcdb@example.com',
    } as const
    const masked = {
      ...config,
      clientSecret: EMAIL_SECRET_MASK,
      refreshToken: EMAIL_SECRET_MASK,
    }
    expect(await email.configure(config)).toEqual(masked)
    expect(await createEmailService({ db }).getConfig()).toEqual(masked)
    const raw = await db.systemStore('email').get('config')
    expect(raw).toContain('refresh-token')
  })
})
