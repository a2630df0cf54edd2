import { expect, it } from 'vitest'
import * as api from './index'
import * as testing from './testing/index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "AuthError",
      "DEFAULT_KEY_EXPIRY_DAYS",
      "DEFAULT_MAGIC_LINK_LIMITS",
      "MAX_KEY_EXPIRY_DAYS",
      "OPERATIONS",
      "QUERY_OPERATORS",
      "ROOT_PRINCIPAL",
      "ROOT_USER_ID",
      "SAFE_QUERY_FIELDS",
      "createAuth",
      "createKeyedLock",
      "createKvIdentityStore",
      "createLoggingMagicLinkSender",
      "createMemoryIdentityStore",
      "createRulesEvaluator",
      "cryptoRandomSource",
      "formatAuthMode",
      "isAuthError",
      "isPermissionString",
      "magicLinkUrl",
      "parseAuthMode",
      "parseRules",
      "permits",
      "systemClock",
    ]
  `)
})

it('exports exactly the testing surface', () => {
  expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
    [
      "createAuthHarness",
      "createManualClock",
      "expectAuthError",
      "runIdentityStoreConformance",
      "testApiKey",
      "testGroup",
      "testId",
      "testMagicLinkCode",
      "testRefreshToken",
      "testSigningKey",
      "testUser",
    ]
  `)
})
