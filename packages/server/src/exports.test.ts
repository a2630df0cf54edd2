import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_SERVER_CONFIG",
      "HEAP_GROWING_PERCENT",
      "LOG_FORMATS",
      "LOG_LEVELS",
      "ROOT_USER_ID",
      "SERVER_USAGE",
      "SERVER_VERSION",
      "ServerError",
      "assertRouteTable",
      "createApp",
      "createBearerAuthenticator",
      "createEmailMagicLinkSender",
      "createEmailService",
      "createEngineIdentityStore",
      "createEngineScheduleStore",
      "createEngineTaskStore",
      "createEngineWebhookQueue",
      "createLogger",
      "disabledAuthenticator",
      "handleRoute",
      "isServerError",
      "limitHeapGrowth",
      "mountRoutes",
      "openApiDocument",
      "openFileIdentityStore",
      "openServices",
      "parseServerArgs",
      "resolveLogFormat",
      "runServer",
      "startServer",
      "toErrorResponse",
    ]
  `)
})
