import {
  emailConfigSchema,
  emailConfigViewSchema,
  emailTestBodySchema,
  emailTestResultSchema,
} from '../email'
import { defineRoute } from '../route'

/** Routes of /system/email-config and /system/email-test (all root). */
export const emailRoutes = {
  emailConfigGet: defineRoute({
    id: 'email.config.get',
    method: 'GET',
    path: '/system/email-config',
    auth: 'root',
    response: emailConfigViewSchema,
  }),
  emailConfigPut: defineRoute({
    id: 'email.config.put',
    method: 'PUT',
    path: '/system/email-config',
    auth: 'root',
    request: { body: emailConfigSchema },
    response: emailConfigViewSchema,
  }),
  emailTest: defineRoute({
    id: 'email.test',
    method: 'POST',
    path: '/system/email-test',
    auth: 'root',
    request: { body: emailTestBodySchema },
    response: emailTestResultSchema,
  }),
} as const
