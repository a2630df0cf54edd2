import * as v from 'valibot'

/** What every secret (`password`, `client_secret`, `refresh_token`) reads back as. */
export const EMAIL_SECRET_MASK = '••••••••'

/** An email address (at most 254 characters, surrounding spaces ignored). */
export const emailAddressSchema = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.email('must be an email address'),
)

const required = (max: number) =>
  v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max))

const hostSchema = v.pipe(
  v.string(),
  v.maxLength(253),
  v.regex(/^[^\s/@]+$/, 'must be a host name or IP address'),
)

const portSchema = v.pipe(
  v.number(),
  v.integer('must be an integer'),
  v.minValue(1, 'must be between 1 and 65535'),
  v.maxValue(65535, 'must be between 1 and 65535'),
)

// A display name goes into a header: no line breaks.
const fromNameSchema = v.pipe(
  v.string(),
  v.maxLength(200),
  v.regex(/^[^\r\n]*$/, 'must be a single line'),
)

const secretSchema = required(4096)
const maskSchema = v.literal(EMAIL_SECRET_MASK)
const OAUTH_PROVIDERS = ['gmail', 'outlook', 'custom'] as const

/** The SMTP form of `PUT /system/email-config` (spec "Email configuration"); `tls` defaults to true. */
export const smtpEmailConfigSchema = v.strictObject({
  provider: v.literal('smtp'),
  host: hostSchema,
  port: portSchema,
  username: required(512),
  password: secretSchema,
  from_address: emailAddressSchema,
  from_name: v.optional(fromNameSchema),
  tls: v.optional(v.boolean(), true),
})

const oauthEntries = {
  provider: v.literal('oauth'),
  client_id: required(1024),
  client_secret: secretSchema,
  refresh_token: secretSchema,
  from_address: emailAddressSchema,
  from_name: v.optional(fromNameSchema),
}

/**
 * The OAuth form of `PUT /system/email-config`. `gmail` and `outlook` know their SMTP server;
 * `custom` also needs `host` and `port` (and takes `tls`, default true).
 */
export const oauthEmailConfigSchema = v.variant('oauth_provider', [
  v.strictObject({ ...oauthEntries, oauth_provider: v.picklist(['gmail', 'outlook']) }),
  v.strictObject({
    ...oauthEntries,
    oauth_provider: v.literal('custom'),
    host: hostSchema,
    port: portSchema,
    tls: v.optional(v.boolean(), true),
  }),
])

/** The body of `PUT /system/email-config`: the SMTP form or the OAuth form, told apart by `provider`. */
export const emailConfigSchema = v.variant('provider', [
  smtpEmailConfigSchema,
  oauthEmailConfigSchema,
])

/** An email configuration as written (`tls` filled in). */
export type EmailConfigBody = v.InferOutput<typeof emailConfigSchema>

/**
 * An email configuration as read back by `GET` and `PUT /system/email-config`: the form as
 * stored, with every secret replaced by {@link EMAIL_SECRET_MASK}.
 */
export const emailConfigViewSchema = v.variant('provider', [
  v.object({
    provider: v.literal('smtp'),
    host: v.string(),
    port: v.number(),
    username: v.string(),
    password: maskSchema,
    from_address: v.string(),
    from_name: v.optional(v.string()),
    tls: v.boolean(),
  }),
  v.object({
    provider: v.literal('oauth'),
    oauth_provider: v.picklist(OAUTH_PROVIDERS),
    client_id: v.string(),
    client_secret: maskSchema,
    refresh_token: maskSchema,
    from_address: v.string(),
    from_name: v.optional(v.string()),
    host: v.optional(v.string()),
    port: v.optional(v.number()),
    tls: v.optional(v.boolean()),
  }),
])

/** An email configuration as read back, secrets masked. */
export type EmailConfigView = v.InferOutput<typeof emailConfigViewSchema>

/** The body of `POST /system/email-test`: where to send the test message. */
export const emailTestBodySchema = v.strictObject({ to: emailAddressSchema })

/**
 * The answer of `POST /system/email-test`, always 200: `{sent: true, message}` once the SMTP
 * server accepted the message, `{sent: false, error}` when sending failed.
 */
export const emailTestResultSchema = v.variant('sent', [
  v.object({ sent: v.literal(true), message: v.string() }),
  v.object({ sent: v.literal(false), error: v.string() }),
])

/** The answer of `POST /system/email-test`. */
export type EmailTestResult = v.InferOutput<typeof emailTestResultSchema>
