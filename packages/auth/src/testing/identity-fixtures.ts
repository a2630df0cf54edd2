import type { Group } from '../groups/group'
import type { ApiKeyRecord } from '../keys/api-key'
import type { MagicLinkCodeRecord } from '../magic-links/magic-link-code'
import type { RefreshTokenRecord } from '../tokens/refresh-token'
import type { SigningKeyRecord } from '../tokens/signing-key'
import type { User } from '../users/user'

let counter = 0
const next = () => (++counter).toString(16).padStart(12, '0')

/** A fresh UUID-shaped id, different on every call. */
export function testId(): string {
  const n = next()
  // The counter leads, so the 16-hex key prefixes differ too.
  return `${n.slice(4)}-${n.slice(0, 4)}-4000-8000-${n}`
}

/** A valid user record; ids and names differ on every call. */
export function testUser(overrides: Partial<User> = {}): User {
  const n = next()
  return {
    userId: testId(),
    username: `user-${n}`,
    email: `user-${n}@example.com`,
    isActive: true,
    tags: [],
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  }
}

/** A valid group record with a unique name. */
export function testGroup(overrides: Partial<Group> = {}): Group {
  return {
    name: `group-${next()}`,
    defaultAllow: '/**',
    defaultDeny: '',
    queryField: 'tags',
    queryOperator: 'has',
    queryValue: 'eng',
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  }
}

/** A valid API key record with a unique id and prefix. */
export function testApiKey(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const keyId = overrides.keyId ?? testId()
  return {
    keyId,
    prefix: keyId.replaceAll('-', '').slice(0, 16),
    secretDigest: `digest-${next()}`,
    kind: 'self-service',
    userId: testId(),
    rules: [],
    createdAt: 1000,
    expiresAt: 10_000,
    ...overrides,
  }
}

/** A valid refresh token record with a unique digest and a new family. */
export function testRefreshToken(overrides: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord {
  return {
    digest: `rt-digest-${next()}`,
    familyId: `family-${next()}`,
    userId: testId(),
    issuedAt: 1000,
    expiresAt: 10_000,
    ...overrides,
  }
}

/** A valid magic-link code record with a unique digest. */
export function testMagicLinkCode(
  overrides: Partial<MagicLinkCodeRecord> = {},
): MagicLinkCodeRecord {
  return {
    digest: `ml-digest-${next()}`,
    userId: testId(),
    createdAt: 1000,
    expiresAt: 10_000,
    ...overrides,
  }
}

/** A signing key record with placeholder key material (stores never look inside). */
export function testSigningKey(kid = `kid-${next()}`): SigningKeyRecord {
  return {
    kid,
    algorithm: 'EdDSA',
    privateJwk: { kty: 'OKP', crv: 'Ed25519', x: `x-${kid}`, d: `d-${kid}` },
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: `x-${kid}` },
    createdAt: 1000,
  }
}
