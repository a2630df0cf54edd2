import { describe, expect, it } from 'vitest'
import type { IdentityStore } from '../store/identity-store'
import { expectAuthError } from './expect-auth-error'
import {
  testApiKey,
  testMagicLinkCode,
  testRefreshToken,
  testSigningKey,
  testUser,
} from './identity-fixtures'

const CONCURRENCY = 50

/** Cases for API keys, refresh tokens, magic-link codes, the signing key and rate limits. */
export function credentialCases(store: () => IdentityStore): void {
  describe('api keys', () => {
    it('stores a key and finds it by id and by prefix', async () => {
      const key = testApiKey({ label: 'laptop', rules: [{ '/docs/**': '-r--l---' }] })
      await store().createApiKey(key)
      expect(await store().getApiKey(key.keyId)).toEqual(key)
      expect(await store().findApiKeyByPrefix(key.prefix)).toEqual(key)
      expect(await store().findApiKeyByPrefix('ffffffffffffffff')).toBeUndefined()
      const copy = await store().getApiKey(key.keyId)
      copy?.rules.push({ '/**': 'crudlify' })
      expect((await store().getApiKey(key.keyId))?.rules).toHaveLength(1)
    })

    it('refuses a taken key id or prefix', async () => {
      const key = testApiKey()
      await store().createApiKey(key)
      await expectAuthError(store().createApiKey(testApiKey({ keyId: key.keyId })), 'CONFLICT')
      await expectAuthError(store().createApiKey(testApiKey({ prefix: key.prefix })), 'CONFLICT')
    })

    it('lists every key or those of one holder, share keys included', async () => {
      const user = testUser().userId
      const mine = [testApiKey({ userId: user }), testApiKey({ userId: user, kind: 'admin' })]
      const share = testApiKey({ userId: null, kind: 'share' })
      for (const key of [...mine, share, testApiKey()]) await store().createApiKey(key)
      expect(await store().listApiKeys()).toHaveLength(4)
      const listed = await store().listApiKeys({ userId: user })
      expect(listed.map((k) => k.keyId).sort()).toEqual(mine.map((k) => k.keyId).sort())
      expect(await store().listApiKeys({ userId: null })).toEqual([share])
    })

    it('revokes a key once, keeping the first revocation time', async () => {
      const key = testApiKey()
      await store().createApiKey(key)
      expect(await store().revokeApiKey(key.keyId, 5000)).toEqual({ ...key, revokedAt: 5000 })
      expect(await store().revokeApiKey(key.keyId, 6000)).toEqual({ ...key, revokedAt: 5000 })
      expect(await store().findApiKeyByPrefix(key.prefix)).toEqual({ ...key, revokedAt: 5000 })
      expect(await store().revokeApiKey(testApiKey().keyId, 5000)).toBeUndefined()
    })
  })

  describe('refresh tokens', () => {
    it('consumes a token once; presenting it again revokes its family', async () => {
      const first = testRefreshToken({ keyId: 'k1' })
      await store().putRefreshToken(first)
      const used = await store().consumeRefreshToken(first.digest, 2000)
      expect(used).toEqual({ outcome: 'consumed', token: { ...first, usedAt: 2000 } })
      const second = testRefreshToken({ familyId: first.familyId })
      await store().putRefreshToken(second)
      const again = await store().consumeRefreshToken(first.digest, 3000)
      expect(again.outcome).toBe('reused')
      expect(await store().consumeRefreshToken(second.digest, 3000)).toEqual({
        outcome: 'rejected',
      })
      // A token added to the family after its revocation is refused as well.
      const late = testRefreshToken({ familyId: first.familyId })
      await store().putRefreshToken(late)
      expect(await store().consumeRefreshToken(late.digest, 3000)).toEqual({ outcome: 'rejected' })
    })

    it('rejects unknown and expired tokens, and tokens of a revoked family', async () => {
      expect(await store().consumeRefreshToken('unknown', 1)).toEqual({ outcome: 'rejected' })
      const token = testRefreshToken({ expiresAt: 5000 })
      await store().putRefreshToken(token)
      expect(await store().consumeRefreshToken(token.digest, 5000)).toEqual({ outcome: 'rejected' })
      const other = testRefreshToken()
      await store().putRefreshToken(other)
      await store().revokeRefreshFamily(other.familyId, 2000)
      expect(await store().consumeRefreshToken(other.digest, 2000)).toEqual({ outcome: 'rejected' })
    })

    it(`lets exactly one of ${CONCURRENCY} concurrent consumers win`, async () => {
      const token = testRefreshToken()
      await store().putRefreshToken(token)
      const results = await Promise.all(
        Array.from({ length: CONCURRENCY }, () => store().consumeRefreshToken(token.digest, 2000)),
      )
      expect(results.filter((r) => r.outcome === 'consumed')).toHaveLength(1)
    })
  })

  describe('magic-link codes', () => {
    it('consumes a code once and refuses expired or unknown codes', async () => {
      const code = testMagicLinkCode({ expiresAt: 5000 })
      await store().putMagicLinkCode(code)
      expect(await store().consumeMagicLinkCode(code.digest, 4999)).toEqual(code)
      expect(await store().consumeMagicLinkCode(code.digest, 4999)).toBeUndefined()
      const expired = testMagicLinkCode({ expiresAt: 5000 })
      await store().putMagicLinkCode(expired)
      expect(await store().consumeMagicLinkCode(expired.digest, 5000)).toBeUndefined()
      expect(await store().consumeMagicLinkCode('unknown', 1)).toBeUndefined()
    })

    it(`lets exactly one of ${CONCURRENCY} concurrent consumers win`, async () => {
      const code = testMagicLinkCode()
      await store().putMagicLinkCode(code)
      const results = await Promise.all(
        Array.from({ length: CONCURRENCY }, () => store().consumeMagicLinkCode(code.digest, 2000)),
      )
      expect(results.filter((r) => r !== undefined)).toHaveLength(1)
    })
  })

  describe('signing key', () => {
    it('stores the first key only', async () => {
      expect(await store().getSigningKey()).toBeUndefined()
      const first = testSigningKey('first')
      expect(await store().putSigningKeyIfAbsent(first)).toEqual(first)
      expect(await store().putSigningKeyIfAbsent(testSigningKey('second'))).toEqual(first)
      expect(await store().getSigningKey()).toEqual(first)
    })

    it('agrees on one key among concurrent writers', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store().putSigningKeyIfAbsent(testSigningKey(`k${i}`)),
        ),
      )
      const stored = await store().getSigningKey()
      expect(results.every((r) => r.kid === stored?.kid)).toBe(true)
    })
  })

  describe('rate limits', () => {
    const policy = (now: number) => ({ now, windowMs: 1000, limit: 3 })

    it('allows the limit within a window, then refuses with the wait', async () => {
      expect(await store().hitRateLimit('a', policy(0))).toEqual({
        allowed: true,
        remaining: 2,
        retryAfterMs: 0,
      })
      await store().hitRateLimit('a', policy(100))
      await store().hitRateLimit('a', policy(200))
      expect(await store().hitRateLimit('a', policy(300))).toEqual({
        allowed: false,
        remaining: 0,
        retryAfterMs: 700,
      })
      // Refused hits do not count: the oldest hit leaves the window at 1000.
      expect((await store().hitRateLimit('a', policy(1000))).allowed).toBe(true)
      expect((await store().hitRateLimit('a', policy(1001))).allowed).toBe(false)
      expect((await store().hitRateLimit('b', policy(1001))).allowed).toBe(true)
    })

    it('counts concurrent hits exactly', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store().hitRateLimit('burst', policy(0))),
      )
      expect(results.filter((r) => r.allowed)).toHaveLength(3)
    })
  })

  describe('expiry', () => {
    it('deletes expired tokens, codes and rate-limit hits, and nothing else', async () => {
      const oldToken = testRefreshToken({ expiresAt: 5000 })
      const newToken = testRefreshToken({ expiresAt: 9000 })
      const oldCode = testMagicLinkCode({ expiresAt: 5000 })
      const newCode = testMagicLinkCode({ expiresAt: 9000 })
      for (const t of [oldToken, newToken]) await store().putRefreshToken(t)
      for (const c of [oldCode, newCode]) await store().putMagicLinkCode(c)
      await store().hitRateLimit('old', { now: 1000, windowMs: 1000, limit: 5 })
      await store().hitRateLimit('new', { now: 5500, windowMs: 1000, limit: 1 })
      expect(await store().deleteExpired(6000)).toBe(3)
      expect(await store().consumeMagicLinkCode(newCode.digest, 6000)).toEqual(newCode)
      expect((await store().consumeRefreshToken(newToken.digest, 6000)).outcome).toBe('consumed')
      expect(
        (await store().hitRateLimit('new', { now: 6000, windowMs: 1000, limit: 1 })).allowed,
      ).toBe(false)
      expect(await store().deleteExpired(6000)).toBe(0)
    })
  })
}
