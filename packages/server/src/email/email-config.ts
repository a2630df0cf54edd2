import { EmailError } from './email-error'

/** Sending through an SMTP server with a user name and password. */
export interface SmtpEmailConfig {
  provider: 'smtp'
  host: string
  port: number
  username: string
  password: string
  fromAddress: string
  fromName?: string
  /** TLS from the first byte on port 465, STARTTLS (required) on any other port; none when false. */
  tls: boolean
}

interface OAuthCredentials {
  provider: 'oauth'
  clientId: string
  clientSecret: string
  refreshToken: string
  /** Also the OAuth2 user the tokens belong to. */
  fromAddress: string
  fromName?: string
}

/** Sending with XOAUTH2 through Gmail, Outlook (Microsoft 365) or a server of one's own. */
export type OAuthEmailConfig =
  | (OAuthCredentials & { oauthProvider: 'gmail' | 'outlook' })
  | (OAuthCredentials & { oauthProvider: 'custom'; host: string; port: number; tls: boolean })

/** Where and how the server sends mail, secrets included (spec "Email configuration"). */
export type EmailConfig = SmtpEmailConfig | OAuthEmailConfig

/** What every secret reads back as: eight bullets (U+2022), whatever the secret. */
export const EMAIL_SECRET_MASK = '••••••••'

/** `config` with `password`, `clientSecret` and `refreshToken` replaced by {@link EMAIL_SECRET_MASK}. */
export function maskEmailConfig(config: EmailConfig): EmailConfig {
  return config.provider === 'smtp'
    ? { ...config, password: EMAIL_SECRET_MASK }
    : { ...config, clientSecret: EMAIL_SECRET_MASK, refreshToken: EMAIL_SECRET_MASK }
}

/**
 * Resolves secrets given as {@link EMAIL_SECRET_MASK}: a client that read the configuration
 * back and writes it again unchanged means "keep the stored secret", never "the password is
 * eight bullets". Only a stored configuration of the same provider lends its secrets.
 *
 * @throws {EmailError} `INVALID_CONFIG` when a mask stands for a secret that is not stored.
 */
export function keepMaskedSecrets(next: EmailConfig, stored: EmailConfig | undefined): EmailConfig {
  if (next.provider === 'smtp') {
    const old = stored?.provider === 'smtp' ? stored : undefined
    return { ...next, password: keep(next.password, old?.password, 'password') }
  }
  const old =
    stored?.provider === 'oauth' && stored.oauthProvider === next.oauthProvider ? stored : undefined
  return {
    ...next,
    clientSecret: keep(next.clientSecret, old?.clientSecret, 'client_secret'),
    refreshToken: keep(next.refreshToken, old?.refreshToken, 'refresh_token'),
  }
}

function keep(value: string, stored: string | undefined, wireName: string): string {
  if (value !== EMAIL_SECRET_MASK) return value
  if (stored === undefined) {
    throw new EmailError(
      'INVALID_CONFIG',
      `${wireName}: the mask stands for the stored secret and none is stored; send the secret itself`,
      { field: wireName },
    )
  }
  return stored
}
