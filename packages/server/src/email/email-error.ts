/** Why an email operation failed. */
export type EmailErrorCode =
  /** No email configuration is stored yet (`PUT /system/email-config`). */
  | 'NOT_CONFIGURED'
  /** The SMTP server could not be reached, refused the login or refused the message; see `cause`. */
  | 'SEND_FAILED'
  /** A configuration cannot be stored as given; `field` names the offending wire field. */
  | 'INVALID_CONFIG'

/** Options of an {@link EmailError}. */
export interface EmailErrorOptions {
  cause?: unknown
  /** The wire name of the configuration field at fault (`password`, `refresh_token`…). */
  field?: string
}

/**
 * Every failure of the email module. Match on `code` with {@link isEmailError}. Messages never
 * hold secrets.
 */
export class EmailError extends Error {
  override readonly name = 'EmailError'
  readonly code: EmailErrorCode
  readonly field: string | undefined

  constructor(code: EmailErrorCode, message: string, options: EmailErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.field = options.field
  }
}

/** True when `err` is an {@link EmailError}, optionally with the given code. Compares codes, not classes. */
export function isEmailError(err: unknown, code?: EmailErrorCode): err is EmailError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'EmailError' && typeof e.code === 'string' && (code === undefined || e.code === code)
  )
}
