import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** A message as the test SMTP server received it. */
export interface ReceivedMail {
  /** Envelope sender and recipients (`MAIL FROM`, `RCPT TO`). */
  from: string
  to: string[]
  /** The user who logged in, when one did. */
  user: string | undefined
  /** The raw message, headers and body. */
  raw: string
  /** Header value of `name` (first occurrence, unfolded), or `undefined`. */
  header(name: string): string | undefined
  /** The raw message with quoted-printable soft line breaks and escapes undone. */
  decoded: string
}

/** A real SMTP server on 127.0.0.1 for tests. */
export interface SmtpTestServer {
  port: number
  received: ReceivedMail[]
  /** Resolves with the next message received (or one already waiting). */
  nextMail(): Promise<ReceivedMail>
  close(): Promise<void>
}

/** Options of {@link startSmtpTestServer}. */
export interface SmtpTestServerOptions {
  /** Accepted logins; without it, no login is needed (but one is accepted). */
  users?: Record<string, string>
}

/**
 * Starts a plain-text SMTP server on an ephemeral loopback port. It does not offer STARTTLS,
 * accepts the logins in `users` and keeps every message it receives.
 */
export async function startSmtpTestServer(
  options: SmtpTestServerOptions = {},
): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = []
  const waiting: ((mail: ReceivedMail) => void)[] = []
  let taken = 0
  const users = options.users
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: users === undefined,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const known = users === undefined || users[auth.username ?? ''] === auth.password
      if (known && auth.username !== undefined) callback(null, { user: auth.username })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'), session)
        received.push(mail)
        const waiter = waiting.shift()
        if (waiter !== undefined) {
          taken += 1
          waiter(mail)
        }
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    nextMail() {
      const ready = received[taken]
      if (ready !== undefined) {
        taken += 1
        return Promise.resolve(ready)
      }
      return new Promise((resolve) => waiting.push(resolve))
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function parseMail(
  raw: string,
  session: {
    envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] }
    user?: unknown
  },
): ReceivedMail {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? ''
  const headers = head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)
  return {
    from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
    to: session.envelope.rcptTo.map((r) => r.address),
    user: typeof session.user === 'string' ? session.user : undefined,
    raw,
    header(name) {
      const prefix = `${name.toLowerCase()}:`
      const line = headers.find((h) => h.toLowerCase().startsWith(prefix))
      return line?.slice(prefix.length).trim()
    },
    decoded: raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  }
}

/** A loopback port on which nothing listens (it was just bound and released). */
export async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}
