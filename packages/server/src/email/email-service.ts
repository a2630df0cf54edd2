import type { Database } from '@svcdb/engine'
import { keepMaskedSecrets, maskEmailConfig } from './email-config'
import type { EmailConfig } from './email-config'
import { createEmailConfigStore, EMAIL_NAMESPACE } from './email-config-store'
import { EmailError } from './email-error'
import { createEmailTransport, DEFAULT_EMAIL_TIMEOUT_MS } from './email-transport'
import type { EmailTransport } from './email-transport'

/** A message to send. */
export interface EmailMessage {
  to: string
  subject: string
  text: string
  /** An HTML alternative of `text`. */
  html?: string
}

/** What the SMTP server said when it accepted a message. */
export interface SentEmail {
  messageId: string
  /** The server's final reply, e.g. `250 OK: queued`. */
  response: string
}

/** The outcome of a test message, exactly as `POST /system/email-test` answers it. */
export type EmailTestOutcome = { sent: true; message: string } | { sent: false; error: string }

/** Sends the server's mail through the configuration root stored. */
export interface EmailService {
  /** The stored configuration with every secret masked, or `undefined` when none is stored. */
  getConfig(): Promise<EmailConfig | undefined>
  /**
   * Stores `config` (a secret given as the mask keeps the stored one) and sends through it
   * from now on. Resolves to the stored configuration, masked.
   *
   * @throws {EmailError} `INVALID_CONFIG` when a mask stands for a secret that is not stored.
   */
  configure(config: EmailConfig): Promise<EmailConfig>
  /** True once a configuration is stored. */
  isConfigured(): Promise<boolean>
  /**
   * Sends one message; resolves once the SMTP server accepted it.
   *
   * @throws {EmailError} `NOT_CONFIGURED`, or `SEND_FAILED` with the transport's error as `cause`.
   */
  send(message: EmailMessage): Promise<SentEmail>
  /** Sends a test message to `to`; never throws for a sending failure, it reports it. */
  test(to: string): Promise<EmailTestOutcome>
}

/** Options of {@link createEmailService}. */
export interface EmailServiceOptions {
  /** Holds the configuration (system store namespace `email`). */
  db: Pick<Database, 'systemStore'>
  /** Per-step SMTP timeout (connect, greeting, each reply); 10 s by default. */
  timeoutMs?: number
  /**
   * Bound on one whole send, from connecting to the server's final reply, so a server that
   * answers every step just in time cannot hold a request; three times `timeoutMs` by default.
   */
  sendTimeoutMs?: number
}

interface Current {
  config: EmailConfig
  transport: EmailTransport
}

const NOT_CONFIGURED = 'email is not configured; root sets it with PUT /system/email-config'

/**
 * The email service of a server. The configuration is read from the database on first use
 * and one transport is built per configuration, so messages reuse it. A whole send is bounded
 * by `sendTimeoutMs` (three times `timeoutMs` by default), so a dead or stalling SMTP server
 * cannot hold a request.
 *
 * @example
 * const email = createEmailService({ db })
 * await email.configure({ provider: 'smtp', host: 'mail.example.com', port: 587, ... })
 * await email.send({ to: 'ada@example.com', subject: 'Hello', text: 'Hi Ada' })
 */
export function createEmailService(options: EmailServiceOptions): EmailService {
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_EMAIL_TIMEOUT_MS)
  const sendTimeoutMs = positive('sendTimeoutMs', options.sendTimeoutMs ?? 3 * timeoutMs)
  const store = createEmailConfigStore(options.db.systemStore(EMAIL_NAMESPACE))
  const build = (config: EmailConfig): Current => ({
    config,
    transport: createEmailTransport(config, { timeoutMs }),
  })
  let current: Promise<Current | undefined> | undefined
  // Configuration writes run one at a time, so the store and the transport agree.
  let writes: Promise<unknown> = Promise.resolve()

  const load = (): Promise<Current | undefined> => {
    if (current === undefined) {
      const loading = store
        .load()
        .then((config) => (config === undefined ? undefined : build(config)))
      // A failed read is not cached: the next call tries again.
      loading.catch(() => {
        if (current === loading) current = undefined
      })
      current = loading
    }
    return current
  }

  const configure = async (next: EmailConfig): Promise<EmailConfig> => {
    const previous = await load()
    const config = keepMaskedSecrets(next, previous?.config)
    await store.save(config)
    current = Promise.resolve(build(config))
    previous?.transport.close()
    return maskEmailConfig(config)
  }

  const send = async (message: EmailMessage): Promise<SentEmail> => {
    const loaded = await load()
    if (loaded === undefined) throw new EmailError('NOT_CONFIGURED', NOT_CONFIGURED)
    try {
      const info = await loaded.transport.sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        signal: AbortSignal.timeout(sendTimeoutMs),
      })
      return { messageId: info.messageId, response: info.response }
    } catch (err) {
      throw new EmailError('SEND_FAILED', `sending to ${message.to} failed: ${reason(err)}`, {
        cause: err,
      })
    }
  }

  return {
    async getConfig() {
      const loaded = await load()
      return loaded === undefined ? undefined : maskEmailConfig(loaded.config)
    },
    configure(config) {
      const result = writes.then(() => configure(config))
      writes = result.catch(() => undefined)
      return result
    },
    async isConfigured() {
      return (await load()) !== undefined
    },
    send,
    async test(to) {
      try {
        const sent = await send({
          to,
          subject: 'svcdb test email',
          text: 'This is a test message from svcdb: the email configuration works.\n',
        })
        return { sent: true, message: `test email sent to ${to} (${sent.response})` }
      } catch (err) {
        return { sent: false, error: reason(err) }
      }
    },
  }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${value}`)
  }
  return value
}

function reason(err: unknown): string {
  return err instanceof Error && err.message !== '' ? err.message : String(err)
}
