import { createTransport } from 'nodemailer'
import type { SMTPSentMessageInfo, SMTPTransportOptions, Transporter } from 'nodemailer'
import type { EmailConfig } from './email-config'

/** How long one step of talking to an SMTP server (connect, greeting, each reply) may take. */
export const DEFAULT_EMAIL_TIMEOUT_MS = 10_000

/** Options of {@link emailTransportOptions} and {@link createEmailTransport}. */
export interface EmailTransportOptions {
  /** Connection, greeting, socket-inactivity, DNS and token-request timeout; 10 s by default. */
  timeoutMs?: number
}

/** A nodemailer transporter for one configuration. */
export type EmailTransport = Transporter<SMTPSentMessageInfo, SMTPTransportOptions>

const OUTLOOK_HOST = 'smtp.office365.com'
const OUTLOOK_PORT = 587
// Microsoft's token endpoint; nodemailer's default is Google's.
const OUTLOOK_TOKEN_URL = 'https://login.microsoftonline.com/common/oauth2/v2.0/token'
const OUTLOOK_SCOPE = 'https://outlook.office.com/SMTP.Send offline_access'

/**
 * The nodemailer SMTP options for `config`. With `tls`, port 465 speaks TLS from the first
 * byte and any other port must upgrade with STARTTLS (a server that does not offer it is
 * refused, so credentials never travel in the clear); without `tls` the connection stays plain.
 * OAuth2 logs in with XOAUTH2 as `from_address`, refreshing access tokens as needed.
 *
 * @example
 * const options = emailTransportOptions({ provider: 'smtp', host: 'mail.example.com', port: 587, ... })
 */
export function emailTransportOptions(
  config: EmailConfig,
  options: EmailTransportOptions = {},
): SMTPTransportOptions {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EMAIL_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`)
  }
  const common: SMTPTransportOptions = {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Messages are built by the server; nothing in them may make it read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  }
  if (config.provider === 'smtp') {
    return {
      ...common,
      ...endpoint(config.host, config.port, config.tls),
      auth: { user: config.username, pass: config.password },
    }
  }
  const auth = {
    type: 'OAuth2',
    user: config.fromAddress,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    refreshToken: config.refreshToken,
    requestTimeout: timeoutMs,
  }
  switch (config.oauthProvider) {
    case 'gmail':
      return { ...common, service: 'gmail', auth }
    case 'outlook':
      return {
        ...common,
        ...endpoint(OUTLOOK_HOST, OUTLOOK_PORT, true),
        auth: { ...auth, accessUrl: OUTLOOK_TOKEN_URL, customParams: { scope: OUTLOOK_SCOPE } },
      }
    case 'custom':
      return { ...common, ...endpoint(config.host, config.port, config.tls), auth }
  }
}

function endpoint(host: string, port: number, tls: boolean): SMTPTransportOptions {
  const implicit = tls && port === 465
  return { host, port, secure: implicit, requireTLS: tls && !implicit, ignoreTLS: !tls }
}

/**
 * A transporter for `config`, sending as `from_name <from_address>`. Make one per
 * configuration, not per message.
 */
export function createEmailTransport(
  config: EmailConfig,
  options: EmailTransportOptions = {},
): EmailTransport {
  const from =
    config.fromName === undefined
      ? config.fromAddress
      : { name: config.fromName, address: config.fromAddress }
  return createTransport(emailTransportOptions(config, options), { from })
}
