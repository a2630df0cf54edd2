/** The SMTP settings form's fields, as typed. */
export interface SmtpFields {
  host: string
  port: string
  username: string
  /** The stored password reads back masked; sending the mask back keeps it. */
  password: string
  fromAddress: string
  fromName: string
  tls: boolean
}

/** The SMTP form of `PUT /system/email-config`. */
export interface SmtpBody {
  provider: 'smtp'
  host: string
  port: number
  username: string
  password: string
  from_address: string
  from_name?: string
  tls: boolean
}

/** The stored SMTP configuration as the API reads it back (other providers are not edited here). */
export interface SmtpView {
  readonly provider: 'smtp'
  readonly host: string
  readonly port: number
  readonly username: string
  readonly password: string
  readonly from_address: string
  readonly from_name?: string | undefined
  readonly tls: boolean
}

/** Empty fields: no configuration is stored yet. */
export const EMPTY_SMTP_FIELDS: SmtpFields = {
  host: '',
  port: '587',
  username: '',
  password: '',
  fromAddress: '',
  fromName: '',
  tls: true,
}

/** The form's fields for a stored configuration. */
export function smtpFields(view: SmtpView): SmtpFields {
  return {
    host: view.host,
    port: String(view.port),
    username: view.username,
    password: view.password,
    fromAddress: view.from_address,
    fromName: view.from_name ?? '',
    tls: view.tls,
  }
}

/** The body to store, or why it cannot be sent (the server checks the rest and says so). */
export function smtpBody(fields: SmtpFields): { body: SmtpBody } | { error: string } {
  const port = Number(fields.port.trim())
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { error: 'The port is a whole number from 1 to 65535.' }
  }
  const fromName = fields.fromName.trim()
  return {
    body: {
      provider: 'smtp',
      host: fields.host.trim(),
      port,
      username: fields.username.trim(),
      password: fields.password,
      from_address: fields.fromAddress.trim(),
      ...(fromName === '' ? {} : { from_name: fromName }),
      tls: fields.tls,
    },
  }
}
