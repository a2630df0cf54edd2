import { magicLinkUrl } from '@svcdb/auth'
import type { MagicLinkSender } from '@svcdb/auth'
import { consoleMagicLinkUrl } from '../console/console-magic-link'
import type { EmailService } from './email-service'

/** Options of {@link createEmailMagicLinkSender}. */
export interface EmailMagicLinkSenderOptions {
  /** The server's public base URL, e.g. `https://db.example.com`. */
  baseUrl: string
  /**
   * The server serves the web console: the link opens it (`/console/?magic_link_code=…`) and
   * the console exchanges the code, instead of the bare `GET /auth/magic-link/verify?code=…`,
   * whose JSON a mail reader's browser would only show.
   */
  console?: boolean
}

/**
 * Mails each magic link through `email`. When email is not configured (or sending fails) the
 * returned promise rejects with an `EmailError` (`NOT_CONFIGURED`, `SEND_FAILED`), which auth
 * reports as a background error; the caller of `POST /auth/magic-link` sees no difference.
 *
 * @example
 * const auth = createAuth({ store, magicLinkSender: createEmailMagicLinkSender(email, { baseUrl }) })
 */
export function createEmailMagicLinkSender(
  email: EmailService,
  options: EmailMagicLinkSenderOptions,
): MagicLinkSender {
  return {
    async send(message) {
      const url =
        options.console === true
          ? consoleMagicLinkUrl(options.baseUrl, message.code)
          : magicLinkUrl(options.baseUrl, message.code)
      const expires = new Date(message.expiresAt).toISOString()
      await email.send({
        to: message.email,
        subject: 'Your svcdb sign-in link',
        text: [
          'Open this link to sign in to svcdb:',
          '',
          url,
          '',
          `It works once and expires at ${expires}.`,
          'If you did not ask to sign in, ignore this message.',
          '',
        ].join('\n'),
        html:
          `<p>Open this link to sign in to svcdb:</p>` +
          `<p><a href="${escapeHtml(url)}">Sign in</a></p>` +
          `<p>It works once and expires at ${expires}.<br>` +
          `If you did not ask to sign in, ignore this message.</p>`,
      })
    },
  }
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
}
