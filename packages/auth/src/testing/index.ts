export { runIdentityStoreConformance } from './identity-store-conformance'
export type { IdentityStoreFixture } from './identity-store-conformance'
export {
  testApiKey,
  testGroup,
  testId,
  testMagicLinkCode,
  testRefreshToken,
  testSigningKey,
  testUser,
} from './identity-fixtures'
export { createManualClock } from './manual-clock'
export type { ManualClock } from './manual-clock'
export { createAuthHarness } from './auth-harness'
export type { AuthHarness, AuthHarnessOptions } from './auth-harness'
export { expectAuthError } from './expect-auth-error'
