import { describe, expect, it } from 'vitest'
import type { IdentityStore } from '../store/identity-store'
import { testApiKey, testGroup, testUser } from './identity-fixtures'

const CONCURRENCY = 50

/** Cases for conditional key creation and the change stamp (what sharing a store needs). */
export function changeCases(store: () => IdentityStore): void {
  describe('conditional key creation', () => {
    it('creates a key unless the holder has one that blocks it, looking at that holder only', async () => {
      const user = testUser().userId
      const other = testApiKey({ kind: 'admin' })
      await store().createApiKey(other)
      const first = testApiKey({ userId: user, kind: 'admin' })
      const blocks = () => true
      expect(await store().createApiKeyIfNone(first, blocks)).toBe(true)
      expect(await store().createApiKeyIfNone(testApiKey({ userId: user }), blocks)).toBe(false)
      const unblocked = testApiKey({ userId: user })
      expect(await store().createApiKeyIfNone(unblocked, (k) => k.revokedAt !== undefined)).toBe(
        true,
      )
      const held = await store().listApiKeys({ userId: user })
      expect(held.map((k) => k.keyId).sort()).toEqual([first.keyId, unblocked.keyId].sort())
    })

    it(`creates exactly one key among ${CONCURRENCY} concurrent callers`, async () => {
      const user = testUser().userId
      const created = await Promise.all(
        Array.from({ length: CONCURRENCY }, () =>
          store().createApiKeyIfNone(testApiKey({ userId: user }), () => true),
        ),
      )
      expect(created.filter(Boolean)).toHaveLength(1)
      expect(await store().listApiKeys({ userId: user })).toHaveLength(1)
    })
  })

  describe('change stamp', () => {
    it('moves with every write of users, groups, keys and shares, never back', async () => {
      const seen = [await store().changeStamp()]
      const user = testUser()
      const key = testApiKey({ userId: user.userId })
      const writes = [
        () => store().createUser(user),
        () => store().updateUser({ ...user, tags: ['x'] }),
        () => store().createGroup(testGroup({ name: 'staff' })),
        () => store().createApiKey(key),
        () => store().revokeApiKey(key.keyId, 5000),
        () =>
          store().putShare({
            path: '/docs',
            subject: { kind: 'user', userId: user.userId },
            permissions: '-r------',
            createdAt: 1,
          }),
        () => store().deleteShares('/docs'),
        () => store().deleteGroup('staff'),
      ]
      for (const write of writes) {
        await write()
        const stamp = await store().changeStamp()
        expect(stamp).toBeDefined()
        expect(seen).not.toContain(stamp)
        seen.push(stamp)
      }
    })
  })
}
