import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Group } from '../groups/group'
import type { Principal } from '../principal'
import { principalOf } from '../principal'
import { createAuthHarness } from '../testing/auth-harness'
import { ROOT_USER_ID } from '../users/user'
import { createAccess } from './access'
import type { Grants } from './access'
import { permissionMask, permissionString } from './permission-flags'
import type { Rule } from './rule'
import { createRulesEvaluator } from './rules-evaluator'

const engGroup = {
  name: 'eng',
  defaultAllow: '/eng/**',
  defaultDeny: '/eng/secret/**',
  queryField: 'tags',
  queryOperator: 'has',
  queryValue: 'eng',
}

const setUp = async () => {
  const harness = await createAuthHarness()
  const { auth, rootKey, signIn } = harness
  const root = await signIn(rootKey)
  await auth.groups.create(engGroup)
  const user = await auth.users.create({ username: 'pat', tags: ['eng'] })
  const userKey = await auth.keys.createAdmin(root, { userId: user.userId })
  const asUser = await signIn(userKey.apiKey)
  return { ...harness, root, user, asUser }
}

describe('permission resolution', () => {
  it('lets root do everything', async () => {
    const { auth, root } = await setUp()
    const access = await auth.accessFor(root)
    expect(access.permissions('/anything/at/all')).toBe('crudlify')
    expect(() => access.check('/x', 'configure')).not.toThrow()
  })

  it('grants crudli-- where a member group allows and does not deny', async () => {
    const { auth, asUser } = await setUp()
    const access = await auth.accessFor(asUser)
    expect(access.permissions('/eng/a.txt')).toBe('crudli--')
    expect(access.permissions('/eng')).toBe('crudli--')
    expect(access.permissions('/eng/secret/x')).toBe('--------')
    expect(access.permissions('/eng/secret')).toBe('--------')
    expect(access.permissions('/other')).toBe('--------')
    // The way to what the group allows can be read and listed.
    expect(access.permissions('/')).toBe('-r--l---')
  })

  it('follows membership as tags and groups change', async () => {
    const { auth, asUser, user } = await setUp()
    await auth.users.update(user.userId, { tags: [] })
    expect((await auth.accessFor(asUser)).permissions('/eng/a')).toBe('--------')
    await auth.users.update(user.userId, { tags: ['eng'] })
    expect((await auth.accessFor(asUser)).permissions('/eng/a')).toBe('crudli--')
    await auth.groups.delete('eng')
    expect((await auth.accessFor(asUser)).permissions('/eng/a')).toBe('--------')
  })

  it('adds the exact flags of shares to users and group members', async () => {
    const { auth, asUser, user } = await setUp()
    await auth.shares.grant({ paths: ['/docs'], userIds: [user.userId], permissions: 'cr------' })
    await auth.shares.grant({
      paths: ['/eng/secret/ok'],
      groupNames: ['eng'],
      permissions: '-r------',
    })
    const access = await auth.accessFor(asUser)
    expect(access.permissions('/docs')).toBe('cr------')
    expect(access.permissions('/docs/deep/file')).toBe('cr------')
    expect(access.permissions('/docsx')).toBe('--------')
    expect(access.permissions('/eng/secret/ok/x')).toBe('-r------')
    // The group denies /eng/secret, but it leads to a share: it can be read and listed.
    expect(access.permissions('/eng/secret')).toBe('-r--l---')
    expect(access.permissions('/eng/secret/other')).toBe('--------')
  })

  it('restricts with key rules, never beyond the user’s own permissions', async () => {
    const { auth, root, user, signIn } = await setUp()
    await auth.shares.grant({ paths: ['/docs'], userIds: [user.userId], permissions: 'cr------' })
    const key = await auth.keys.create(root, {
      userId: user.userId,
      rules: [{ '/eng/**': 'crudlify' }, { '/docs/**': '-r------' }],
    })
    const access = await auth.accessFor(await signIn(key.key))
    expect(access.permissions('/eng/a')).toBe('crudli--')
    expect(access.permissions('/eng/secret/x')).toBe('--------')
    expect(access.permissions('/docs/x')).toBe('-r------')
    expect(access.permissions('/other')).toBe('--------')
    expect(access.permissions('/')).toBe('-r--l---')
  })

  it('restricts root’s own scoped keys too', async () => {
    const { auth, root, signIn } = await setUp()
    const key = await auth.keys.create(root, { rules: [{ '/backups/**': '-r--l---' }] })
    const access = await auth.accessFor(await signIn(key.key))
    expect(access.principal).toMatchObject({ userId: ROOT_USER_ID, isRoot: false })
    expect(access.permissions('/backups/x')).toBe('-r--l---')
    expect(access.permissions('/etc')).toBe('--------')
  })

  it('answers denials of scoped keys as absent (404) and others as forbidden (403)', async () => {
    const { auth, root, asUser, user, signIn } = await setUp()
    const unscoped = await auth.accessFor(asUser)
    expect(unscoped.decide('/other')).toEqual({ permissions: '--------', denyAs: 'forbidden' })
    expect(() => unscoped.check('/other', 'read')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    )
    const key = await auth.keys.create(root, {
      userId: user.userId,
      rules: [{ '/eng/**': '-r------' }],
    })
    const scoped = await signIn(key.key)
    expect(await auth.resolvePermissions(scoped, '/eng/a')).toEqual({
      permissions: '-r------',
      denyAs: 'not_found',
    })
    const access = await auth.accessFor(scoped)
    expect(() => access.check('/eng/a', 'update')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    )
    expect(() => access.check('/eng/a', 'read')).not.toThrow()
    expect(access.allows('/eng/a', 'read')).toBe(true)
    expect(access.allows('/eng/a', 'delete')).toBe(false)
  })

  it('leaves out of listings what the caller cannot access, annotating the rest', async () => {
    const { auth, root, user, signIn } = await setUp()
    const key = await auth.keys.create(root, {
      userId: user.userId,
      rules: [{ '/eng/public/**': '-r--l---' }],
    })
    const access = await auth.accessFor(await signIn(key.key))
    const entries = [{ path: '/eng/public' }, { path: '/eng/private' }, { path: '/eng/secret' }]
    expect(access.visible(entries, (e) => e.path)).toEqual([
      { item: { path: '/eng/public' }, effectivePermissions: '-r--l---' },
    ])
    expect(access.visible([{ path: '/eng' }, { path: '/x' }], (e) => e.path)).toEqual([
      { item: { path: '/eng' }, effectivePermissions: '-r--l---' },
    ])
  })

  it('gives a principal of a deactivated user nothing', async () => {
    const { auth, asUser, user } = await setUp()
    await auth.users.deactivate(user.userId)
    expect((await auth.accessFor(asUser)).permissions('/eng/a')).toBe('--------')
  })

  it('gives a share key without rules nothing at all', () => {
    const access = createAccess(principalOf(null, 'k', []), 'all', createRulesEvaluator([]))
    expect(access.permissions('/')).toBe('--------')
    expect(access.scoped).toBe(true)
  })
})

const group = (defaultAllow: string, defaultDeny: string): Group => ({
  name: 'g',
  defaultAllow,
  defaultDeny,
  queryField: 'tags',
  queryOperator: 'has',
  queryValue: 'x',
  createdAt: 0,
  updatedAt: 0,
})
const seg = fc.constantFrom('a', 'b', 'c')
const pathArb = fc.array(seg, { maxLength: 4 }).map((s) => `/${s.join('/')}`)
const globArb = fc
  .array(fc.constantFrom('a', 'b', '*', '**'), { minLength: 1, maxLength: 3 })
  .map((s) => `/${s.join('/')}`)
const grantsArb: fc.Arbitrary<Grants> = fc.record({
  groups: fc.array(
    fc.tuple(globArb, fc.option(globArb, { nil: '' })).map(([a, d]) => group(a, d)),
    { maxLength: 3 },
  ),
  shares: fc.array(
    fc.record({
      path: pathArb,
      subject: fc.constant({ kind: 'user' as const, userId: 'u' }),
      permissions: fc.integer({ min: 0, max: 255 }).map(permissionString),
      createdAt: fc.constant(0),
    }),
    { maxLength: 3 },
  ),
})
const rulesArb = fc.array(
  fc
    .tuple(globArb, fc.integer({ min: 0, max: 255 }))
    .map(([g, m]): Rule => ({ [g]: permissionString(m) })),
  { maxLength: 4 },
)

describe('permission resolution properties', () => {
  it('never lets a key grant beyond what its user holds without it', () => {
    const user = '11111111-1111-4111-8111-111111111111'
    fc.assert(
      fc.property(grantsArb, rulesArb, pathArb, (grants, rules, path) => {
        const own = createAccess(principalOf(user, undefined, []), grants, createRulesEvaluator([]))
        const keyed = createAccess(
          principalOf(user, 'k', rules),
          grants,
          createRulesEvaluator(rules),
        )
        const ownMask = permissionMask(own.permissions(path))
        expect(permissionMask(keyed.permissions(path)) & ~ownMask).toBe(0)
        if (rules.length === 0) expect(keyed.permissions(path)).toBe(own.permissions(path))
      }),
    )
  })
})

describe('permissionsBelow', () => {
  const principal = (rules: Rule[], userId: string | null = 'u1') =>
    ({ userId, isRoot: false, rules, scoped: rules.length > 0 || userId === null }) as Principal
  const group = (defaultAllow: string, defaultDeny = '') =>
    ({ name: 'g', defaultAllow, defaultDeny }) as Group

  it('answers the shared permissions when nothing tells the paths below apart', () => {
    const access = createAccess(
      principal([{ '/eng/**': 'cr-dl---' }]),
      { groups: [group('/**')], shares: [] },
      createRulesEvaluator([{ '/eng/**': 'cr-dl---' }]),
    )
    expect(access.permissionsBelow('/eng')).toBe('cr-dl---')
    expect(access.permissionsBelow('/eng/a/b')).toBe('cr-dl---')
  })

  it('answers undefined when a rule, a deny or a share matches only part of the subtree', () => {
    const byRule = createAccess(
      principal([{ '/eng/secret/**': '--------' }, { '/eng/**': 'crudl---' }]),
      { groups: [group('/**')], shares: [] },
      createRulesEvaluator([{ '/eng/secret/**': '--------' }, { '/eng/**': 'crudl---' }]),
    )
    expect(byRule.permissionsBelow('/eng')).toBeUndefined()
    expect(byRule.permissionsBelow('/eng/secret')).toBe('--------')
    const byDeny = createAccess(
      principal([]),
      { groups: [group('/**', '/eng/secret/**')], shares: [] },
      createRulesEvaluator([]),
    )
    expect(byDeny.permissionsBelow('/eng')).toBeUndefined()
    expect(byDeny.permissionsBelow('/other')).toBe('crudli--')
    const byShare = createAccess(
      principal([]),
      {
        groups: [],
        shares: [
          {
            path: '/eng/open',
            subject: { kind: 'user', userId: 'u1' },
            permissions: 'crudl---',
            createdAt: 0,
          },
        ],
      },
      createRulesEvaluator([]),
    )
    expect(byShare.permissionsBelow('/eng')).toBeUndefined()
    expect(byShare.permissionsBelow('/eng/open')).toBe('crudl---')
  })

  it('treats brace and wildcard globs that reach below as non-uniform', () => {
    const rules = [{ '/{eng,ops}/**': 'crudl---' }]
    const access = createAccess(
      principal(rules),
      { groups: [group('/**')], shares: [] },
      createRulesEvaluator(rules),
    )
    expect(access.permissionsBelow('/eng')).toBe('crudl---')
    expect(access.permissionsBelow('/')).toBeUndefined()
  })
})
