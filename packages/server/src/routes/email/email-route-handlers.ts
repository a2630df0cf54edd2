import { routes } from '@svcdb/contract'
import { isEmailError } from '../../email/email-error'
import type { EmailService } from '../../email/email-service'
import { emailConfigFromBody, emailConfigView } from '../../dto/email-views'
import { sendView } from '../../dto/send-view'
import { ServerError } from '../../errors/server-error'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'

/** What the email routes use. */
export interface EmailRoutesContext {
  email: EmailService
}

/** `/system/email-config` and `/system/email-test` (all root). */
export function emailRouteHandlers(ctx: EmailRoutesContext): RouteHandler[] {
  return [
    handleRoute(routes.emailConfigGet, async (c) => {
      const config = await ctx.email.getConfig()
      if (config === undefined) throw new ServerError('NOT_FOUND', 'email is not configured')
      return sendView(c, routes.emailConfigGet, emailConfigView(config), 200)
    }),
    handleRoute(routes.emailConfigPut, async (c, { body }) => {
      try {
        const saved = await ctx.email.configure(emailConfigFromBody(body))
        return sendView(c, routes.emailConfigPut, emailConfigView(saved), 200)
      } catch (err) {
        if (!isEmailError(err, 'INVALID_CONFIG') || err.field === undefined) throw err
        throw new ServerError('VALIDATION_FAILED', `invalid request: body.${err.message}`, {
          details: [{ path: `body.${err.field}`, message: err.message }],
        })
      }
    }),
    // Sending failures are answers, not HTTP errors (spec): 200 `{sent: false, error}`.
    handleRoute(routes.emailTest, async (c, { body }) => {
      return sendView(c, routes.emailTest, await ctx.email.test(body.to), 200)
    }),
  ]
}
