export { EMAIL_SECRET_MASK, keepMaskedSecrets, maskEmailConfig } from './email-config'
export type { EmailConfig, OAuthEmailConfig, SmtpEmailConfig } from './email-config'
export { createEmailConfigStore, EMAIL_NAMESPACE } from './email-config-store'
export type { EmailConfigStore } from './email-config-store'
export { EmailError, isEmailError } from './email-error'
export type { EmailErrorCode, EmailErrorOptions } from './email-error'
export { createEmailMagicLinkSender } from './email-magic-link-sender'
export type { EmailMagicLinkSenderOptions } from './email-magic-link-sender'
export { createEmailService } from './email-service'
export type {
  EmailMessage,
  EmailService,
  EmailServiceOptions,
  EmailTestOutcome,
  SentEmail,
} from './email-service'
export {
  createEmailTransport,
  DEFAULT_EMAIL_TIMEOUT_MS,
  emailTransportOptions,
} from './email-transport'
export type { EmailTransport, EmailTransportOptions } from './email-transport'
