import { describe, expect, it } from 'vitest'
import type { Share } from '../shares/share'
import type { IdentityStore } from '../store/identity-store'
import { expectAuthError } from './expect-auth-error'
import { testGroup, testUser } from './identity-fixtures'

/** Cases for users, groups and shares. */
export function directoryCases(store: () => IdentityStore): void {
  describe('users', () => {
    it('stores a user and returns copies of it', async () => {
      const user = testUser({ tags: ['eng'] })
      await store().createUser(user)
      const got = await store().getUser(user.userId)
      expect(got).toEqual(user)
      got?.tags.push('mutated')
      expect(await store().getUser(user.userId)).toEqual(user)
      expect(await store().getUser(testUser().userId)).toBeUndefined()
    })

    it('keeps ids, usernames and emails unique, regardless of case', async () => {
      const user = testUser({ username: 'Alice', email: 'Alice@Example.com' })
      await store().createUser(user)
      await expectAuthError(store().createUser(testUser({ userId: user.userId })), 'CONFLICT')
      await expectAuthError(store().createUser(testUser({ username: 'alice' })), 'CONFLICT')
      await expectAuthError(
        store().createUser(testUser({ email: 'alice@example.COM' })),
        'CONFLICT',
      )
      const { email: _, ...noEmail } = testUser()
      await store().createUser(noEmail)
      expect(await store().listUsers()).toHaveLength(2)
    })

    it('lets only one of concurrent creations take a username', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => store().createUser(testUser({ username: 'race' }))),
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    })

    it('finds a user by email, case-insensitively', async () => {
      const user = testUser({ email: 'Bob@Example.com' })
      await store().createUser(user)
      expect(await store().findUserByEmail('bob@example.com')).toEqual(user)
      expect(await store().findUserByEmail('nobody@example.com')).toBeUndefined()
    })

    it('updates a user and moves its username and email', async () => {
      const user = testUser({ username: 'carol', email: 'carol@example.com' })
      await store().createUser(user)
      const changed = { ...user, username: 'caroline', email: 'c@example.com', updatedAt: 2000 }
      await store().updateUser(changed)
      expect(await store().getUser(user.userId)).toEqual(changed)
      expect(await store().findUserByEmail('carol@example.com')).toBeUndefined()
      expect(await store().findUserByEmail('c@example.com')).toEqual(changed)
      await store().createUser(testUser({ username: 'carol', email: 'carol@example.com' }))
      const { email: _, ...cleared } = changed
      await store().updateUser(cleared)
      expect(await store().findUserByEmail('c@example.com')).toBeUndefined()
    })

    it('refuses to update an unknown user or to take another user’s names', async () => {
      const a = testUser()
      const b = testUser()
      await store().createUser(a)
      await store().createUser(b)
      await expectAuthError(store().updateUser(testUser()), 'NOT_FOUND')
      await expectAuthError(store().updateUser({ ...b, username: a.username }), 'CONFLICT')
      await expectAuthError(
        store().updateUser({ ...b, email: (a.email ?? '').toUpperCase() }),
        'CONFLICT',
      )
      await store().updateUser({ ...a, username: a.username.toUpperCase() })
      expect(await store().getUser(b.userId)).toEqual(b)
    })
  })

  describe('groups', () => {
    it('creates, lists, updates and deletes groups by name', async () => {
      const a = testGroup({ name: 'a-team' })
      const b = testGroup({ name: 'b-team' })
      await store().createGroup(b)
      await store().createGroup(a)
      expect(await store().listGroups()).toEqual([a, b])
      await expectAuthError(store().createGroup(testGroup({ name: 'a-team' })), 'CONFLICT')
      const changed = { ...a, defaultAllow: '/a/**', updatedAt: 2000 }
      await store().updateGroup(changed)
      expect(await store().getGroup('a-team')).toEqual(changed)
      await expectAuthError(store().updateGroup(testGroup()), 'NOT_FOUND')
      expect(await store().deleteGroup('a-team')).toBe(true)
      expect(await store().deleteGroup('a-team')).toBe(false)
      expect(await store().getGroup('a-team')).toBeUndefined()
    })

    it('deletes the shares of a deleted group, and only those', async () => {
      const group = testGroup()
      await store().createGroup(group)
      const subject = { kind: 'group', name: group.name } as const
      const user = { kind: 'user', userId: testUser().userId } as const
      await store().putShare({ path: '/a', subject, permissions: '-r------', createdAt: 1 })
      await store().putShare({ path: '/a', subject: user, permissions: '-r------', createdAt: 1 })
      await store().deleteGroup(group.name)
      expect(await store().listShares({ subjects: [subject] })).toEqual([])
      expect(await store().listShares({ path: '/a' })).toHaveLength(1)
    })
  })

  describe('shares', () => {
    const alice = { kind: 'user', userId: '11111111-1111-4111-8111-111111111111' } as const
    const eng = { kind: 'group', name: 'eng' } as const
    const share = (path: string, subject: Share['subject'], permissions = '-r--l---'): Share => ({
      path,
      subject,
      permissions,
      createdAt: 1000,
    })

    it('lists shares by path and by subject, and replaces a subject’s share on a path', async () => {
      await store().putShare(share('/docs', alice))
      await store().putShare(share('/docs', eng))
      await store().putShare(share('/docs/a b', alice))
      await store().putShare(share('/docsx', eng))
      await store().putShare(share('/docs', alice, 'crud----'))
      expect(await store().listShares({ path: '/docs' })).toEqual(
        expect.arrayContaining([share('/docs', alice, 'crud----'), share('/docs', eng)]),
      )
      expect(await store().listShares({ path: '/docs' })).toHaveLength(2)
      expect(await store().listShares({ subjects: [alice] })).toEqual([
        share('/docs', alice, 'crud----'),
        share('/docs/a b', alice),
      ])
      expect(await store().listShares({ subjects: [alice, eng], path: '/docsx' })).toEqual([
        share('/docsx', eng),
      ])
      expect(await store().listShares()).toHaveLength(4)
    })

    it('deletes the shares on a path, of one subject or all', async () => {
      await store().putShare(share('/docs', alice))
      await store().putShare(share('/docs', eng))
      await store().putShare(share('/other', eng))
      expect(await store().deleteShares('/docs', eng)).toBe(1)
      expect(await store().listShares({ subjects: [eng] })).toEqual([share('/other', eng)])
      expect(await store().deleteShares('/docs')).toBe(1)
      expect(await store().deleteShares('/docs')).toBe(0)
      expect(await store().listShares()).toEqual([share('/other', eng)])
    })
  })
}
