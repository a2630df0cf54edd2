import type { routes } from '@svcdb/contract'
import type * as v from 'valibot'
import { EMAIL_SECRET_MASK } from '../email/email-config'
import type { EmailConfig } from '../email/email-config'

/** The body of `PUT /system/email-config`, as validated. */
type EmailConfigBody = v.InferOutput<(typeof routes)['emailConfigPut']['request']['body']>
/** The configuration as `GET /system/email-config` answers it. */
type EmailConfigView = v.InferOutput<(typeof routes)['emailConfigGet']['response']>

/** The configuration a `PUT /system/email-config` body describes (wire names to ours). */
export function emailConfigFromBody(body: EmailConfigBody): EmailConfig {
  const sender = {
    fromAddress: body.from_address,
    ...(body.from_name === undefined ? {} : { fromName: body.from_name }),
  }
  if (body.provider === 'smtp') {
    return {
      provider: 'smtp',
      host: body.host,
      port: body.port,
      username: body.username,
      password: body.password,
      tls: body.tls,
      ...sender,
    }
  }
  const credentials = {
    provider: 'oauth',
    clientId: body.client_id,
    clientSecret: body.client_secret,
    refreshToken: body.refresh_token,
    ...sender,
  } as const
  return body.oauth_provider === 'custom'
    ? { ...credentials, oauthProvider: 'custom', host: body.host, port: body.port, tls: body.tls }
    : { ...credentials, oauthProvider: body.oauth_provider }
}

/**
 * The wire view of a configuration. Secrets are written as the mask here whatever `config`
 * holds, so no code path can put one on the wire.
 */
export function emailConfigView(config: EmailConfig): EmailConfigView {
  const sender = {
    from_address: config.fromAddress,
    ...(config.fromName === undefined ? {} : { from_name: config.fromName }),
  }
  if (config.provider === 'smtp') {
    return {
      provider: 'smtp',
      host: config.host,
      port: config.port,
      username: config.username,
      password: EMAIL_SECRET_MASK,
      ...sender,
      tls: config.tls,
    }
  }
  return {
    provider: 'oauth',
    oauth_provider: config.oauthProvider,
    client_id: config.clientId,
    client_secret: EMAIL_SECRET_MASK,
    refresh_token: EMAIL_SECRET_MASK,
    ...sender,
    ...(config.oauthProvider === 'custom'
      ? { host: config.host, port: config.port, tls: config.tls }
      : {}),
  }
}
