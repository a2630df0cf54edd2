import { describe, expect, it } from 'vitest'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError } from '../testing/expect-auth-error'
import { ROOT_USER_ID } from '../users/user'

const group = {
  name: 'eng',
  defaultAllow: '/eng/**',
  defaultDeny: '',
  queryField: 'tags',
  queryOperator: 'has',
  queryValue: 'eng',
}

describe('users', () => {
  it('are created active with no tags, found, listed and updated', async () => {
    const { auth, clock } = await createAuthHarness()
    const user = await auth.users.create({ username: 'lena', email: 'lena@example.com' })
    expect(user).toEqual({
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      username: 'lena',
      email: 'lena@example.com',
      isActive: true,
      tags: [],
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    expect(await auth.users.get(user.userId.toUpperCase())).toEqual(user)
    expect((await auth.users.list()).map((u) => u.username).sort()).toEqual(['lena', 'root'])
    clock.advance(5)
    const changed = await auth.users.update(user.userId, { email: null, tags: ['eng'] })
    expect(changed).toMatchObject({ tags: ['eng'], updatedAt: user.createdAt + 5 })
    expect(changed.email).toBeUndefined()
    expect(await auth.users.deactivate(user.userId)).toEqual({
      deactivated: true,
      userId: user.userId,
    })
    expect((await auth.users.get(user.userId)).isActive).toBe(false)
  })

  it('refuse bad ids, unknown users, duplicates and deactivating root', async () => {
    const { auth } = await createAuthHarness()
    await auth.users.create({ username: 'max', email: 'max@example.com' })
    await expectAuthError(auth.users.get('nope'), 'INVALID_INPUT')
    await expectAuthError(auth.users.get('11111111-1111-4111-8111-111111111111'), 'NOT_FOUND')
    await expectAuthError(auth.users.create({ username: 'MAX' }), 'CONFLICT')
    await expectAuthError(
      auth.users.create({ username: 'x', email: 'MAX@example.com' }),
      'CONFLICT',
    )
    await expectAuthError(auth.users.create({ username: 'bad name' }), 'INVALID_INPUT')
    await expectAuthError(auth.users.deactivate(ROOT_USER_ID), 'FORBIDDEN')
  })
})

describe('groups', () => {
  it('are created, read, listed, updated and deleted', async () => {
    const { auth, clock } = await createAuthHarness()
    const created = await auth.groups.create(group)
    expect(created).toEqual({ ...group, createdAt: clock.now(), updatedAt: clock.now() })
    expect(await auth.groups.get('eng')).toEqual(created)
    expect(await auth.groups.list()).toEqual([created])
    clock.advance(1)
    expect(await auth.groups.update('eng', { defaultDeny: '/eng/secret/**' })).toMatchObject({
      defaultDeny: '/eng/secret/**',
      updatedAt: created.createdAt + 1,
    })
    expect(await auth.groups.delete('eng')).toEqual({ deleted: true, name: 'eng' })
    await expectAuthError(auth.groups.get('eng'), 'NOT_FOUND')
    await expectAuthError(auth.groups.delete('eng'), 'NOT_FOUND')
    await expectAuthError(auth.groups.update('eng', {}), 'NOT_FOUND')
  })

  it('list their members by the group query, now', async () => {
    const { auth } = await createAuthHarness()
    await auth.groups.create(group)
    const ada = await auth.users.create({ username: 'ada' })
    await auth.users.create({ username: 'bob' })
    expect(await auth.groups.members('eng')).toEqual([])
    await auth.users.update(ada.userId, { tags: ['eng', 'ops'] })
    expect((await auth.groups.members('eng')).map((u) => u.username)).toEqual(['ada'])
    await expectAuthError(auth.groups.members('nope'), 'NOT_FOUND')
  })

  it('refuse unsafe fields, bad input and duplicate names', async () => {
    const { auth } = await createAuthHarness()
    await auth.groups.create(group)
    await expectAuthError(auth.groups.create(group), 'CONFLICT')
    await expectAuthError(
      auth.groups.create({ ...group, name: 'x', queryField: 'email' }),
      'UNSAFE_QUERY_FIELD',
    )
    await expectAuthError(
      auth.groups.update('eng', { queryField: 'password' }),
      'UNSAFE_QUERY_FIELD',
    )
    await expectAuthError(
      auth.groups.create({ ...group, name: 'y', defaultAllow: 'x' }),
      'INVALID_INPUT',
    )
  })
})

describe('shares', () => {
  it('grant exact permissions to users and groups, and are listed and removed', async () => {
    const { auth, clock } = await createAuthHarness()
    const user = await auth.users.create({ username: 'nia' })
    await auth.groups.create(group)
    const shares = await auth.shares.grant({
      paths: ['/a', '/b'],
      userIds: [user.userId],
      groupNames: ['eng'],
      permissions: '-r--l---',
    })
    expect(shares).toHaveLength(4)
    expect(shares[0]).toEqual({
      path: '/a',
      subject: { kind: 'user', userId: user.userId },
      permissions: '-r--l---',
      createdAt: clock.now(),
    })
    expect(await auth.shares.list('/a')).toHaveLength(2)
    expect(await auth.shares.list()).toHaveLength(4)
    expect(await auth.shares.revoke({ path: '/a', groupName: 'eng' })).toBe(1)
    expect(await auth.shares.revoke({ path: '/b' })).toBe(2)
    expect(await auth.shares.list()).toHaveLength(1)
  })

  it('check paths, permissions and subjects', async () => {
    const { auth } = await createAuthHarness()
    const user = await auth.users.create({ username: 'oli' })
    const ok = { paths: ['/a'], userIds: [user.userId], permissions: '-r------' }
    await expectAuthError(auth.shares.grant({ ...ok, paths: [] }), 'INVALID_INPUT')
    await expectAuthError(auth.shares.grant({ ...ok, paths: ['a/'] }), 'INVALID_INPUT')
    await expectAuthError(auth.shares.grant({ ...ok, paths: ['/a/../b'] }), 'INVALID_INPUT')
    await expectAuthError(auth.shares.grant({ ...ok, permissions: 'read' }), 'INVALID_INPUT')
    await expectAuthError(auth.shares.grant({ ...ok, permissions: '--------' }), 'INVALID_INPUT')
    await expectAuthError(auth.shares.grant({ ...ok, userIds: [] }), 'INVALID_INPUT')
    await expectAuthError(auth.shares.grant({ ...ok, userIds: ['x'] }), 'INVALID_INPUT')
    await expectAuthError(
      auth.shares.grant({ ...ok, userIds: ['11111111-1111-4111-8111-111111111111'] }),
      'NOT_FOUND',
    )
    await expectAuthError(auth.shares.grant({ ...ok, groupNames: ['ghosts'] }), 'NOT_FOUND')
  })
})

describe('share links', () => {
  it('are share keys (no user) whose rules cover each path’s subtree only', async () => {
    const { auth, clock, signIn } = await createAuthHarness()
    const link = await auth.shares.createLink({
      paths: ['/pub/a [1]'],
      permissions: '-r--l---',
      expiresInDays: 7,
    })
    expect(link).toMatchObject({
      paths: ['/pub/a [1]'],
      permissions: '-r--l---',
      expiresAt: clock.now() + 7 * 86_400_000,
    })
    expect(link.key).toMatch(/^svc_[0-9a-f]{16}_/)
    const principal = await signIn(link.key)
    expect(principal).toMatchObject({
      userId: null,
      keyId: link.keyId,
      scoped: true,
      isRoot: false,
    })
    const access = await auth.accessFor(principal)
    expect(access.permissions('/pub/a [1]/x.txt')).toBe('-r--l---')
    expect(access.permissions('/pub')).toBe('-r--l---')
    expect(access.permissions('/pub/a 1')).toBe('--------')
    expect(access.permissions('/other')).toBe('--------')
    expect(await auth.shares.listLinks('/pub/a [1]')).toEqual([
      {
        keyId: link.keyId,
        paths: ['/pub/a [1]'],
        permissions: '-r--l---',
        createdAt: clock.now(),
        expiresAt: link.expiresAt,
      },
    ])
    expect(await auth.shares.listLinks('/elsewhere')).toEqual([])
    await expectAuthError(auth.shares.revokeLink('nope'), 'INVALID_INPUT')
    expect(await auth.shares.revokeLink(link.keyId)).toEqual({ revoked: true, keyId: link.keyId })
    expect(await auth.shares.listLinks()).toEqual([])
    await expectAuthError(auth.exchangeApiKey(link.key), 'INVALID_CREDENTIAL')
  })

  it('cannot revoke keys that are not share links', async () => {
    const { auth, rootKey, signIn } = await createAuthHarness()
    const root = await signIn(rootKey)
    await expectAuthError(auth.shares.revokeLink(root.keyId ?? ''), 'NOT_FOUND')
  })
})
