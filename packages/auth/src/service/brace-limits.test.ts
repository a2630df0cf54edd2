import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Group } from '../groups/group'
import { digestSecret } from '../internal/secret-digest'
import { DAY_MS } from '../keys/api-key'
import { formatApiKey, keyPrefix } from '../keys/api-key-string'
import type { Rule } from '../permissions/rule'
import { createMemoryIdentityStore } from '../store/memory-identity-store'
import type { IdentityStore } from '../store/identity-store'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError } from '../testing/expect-auth-error'
import { createIdentityCache } from './identity-cache'

const BOMB = '/{1..20}{1..20}{1..20}'

/** Stores a self-service key with `rules` as written, as one created before the limits. */
async function storeKeyWithRules(
  store: IdentityStore,
  userId: string,
  rules: Rule[],
  now: number,
): Promise<string> {
  const keyId = randomUUID()
  const secret = 'a'.repeat(43)
  await store.createApiKey({
    keyId,
    prefix: keyPrefix(keyId),
    secretDigest: digestSecret(secret),
    kind: 'self-service',
    userId,
    rules,
    createdAt: now,
    expiresAt: now + DAY_MS,
  })
  return formatApiKey('self-service', keyPrefix(keyId), secret)
}

describe('brace limits on keys', () => {
  it('refuse a key whose rules expand to more than 64 patterns', async () => {
    const { auth, rootKey, signIn } = await createAuthHarness()
    const root = await signIn(rootKey)
    const rules = Array.from({ length: 100 }, () => ({ [BOMB]: '-r--l---' }))
    await expectAuthError(auth.keys.create(root, { rules }), 'INVALID_INPUT')
    const fine = await auth.keys.create(root, { rules: [{ '/{a,b}/{1..9}/**': '-r--l---' }] })
    expect(fine.rules).toEqual([{ '/{a,b}/{1..9}/**': '-r--l---' }])
  })

  it('deny everything, without expanding, for a stored key past the limit', async () => {
    const { auth, store, clock, signIn } = await createAuthHarness()
    const ada = await auth.users.create({ username: 'ada' })
    const rules = [
      ...Array.from({ length: 100 }, (_, i) => ({ [`${BOMB}${i}`]: '--------' })),
      { '/**': 'crudlify' },
    ]
    const key = await storeKeyWithRules(store, ada.userId, rules, clock.now())
    const access = await auth.accessFor(await signIn(key))
    for (const path of ['/', '/111', '/other/x']) expect(access.permissions(path)).toBe('--------')
    expect(access.permissionsBelow('/')).toBe('--------')
    expect(access.visible(['/a', '/b'], (p) => p)).toEqual([])
  })

  it('deny everything for stored rules that no longer compile, without throwing', async () => {
    const { auth, store, clock, signIn } = await createAuthHarness()
    const ada = await auth.users.create({ username: 'ada' })
    const key = await storeKeyWithRules(
      store,
      ada.userId,
      [{ [`/${'x'.repeat(2000)}`]: 'crudlify' }],
      clock.now(),
    )
    const access = await auth.accessFor(await signIn(key))
    expect(access.permissions('/')).toBe('--------')
  })
})

describe('the compiled-rules cache', () => {
  it('stays within its byte budget, dropping the least recently used', () => {
    const cache = createIdentityCache(createMemoryIdentityStore(), () => 0, 5000, 200_000)
    const ruleSet = (i: number): Rule[] => [{ [`/${'x'.repeat(1000)}/${i}`]: 'crudlify' }]
    const first = cache.rules(ruleSet(0))
    for (let i = 1; i < 100; i++) {
      cache.rules(ruleSet(i))
      expect(cache.rules(ruleSet(0))).toBe(first)
      expect(cache.compiledRulesBytes()).toBeLessThanOrEqual(200_000)
    }
    expect(cache.compiledRulesBytes()).toBeGreaterThan(100_000)
  })

  it('compiles but does not keep rules larger than the whole budget', () => {
    const cache = createIdentityCache(createMemoryIdentityStore(), () => 0, 5000, 10_000)
    const rules = Array.from({ length: 10 }, (_, i) => ({ [`/big/${i}`]: 'crudlify' }))
    expect(cache.rules(rules).evaluate('/big/3')).toBe('crudlify')
    expect(cache.compiledRulesBytes()).toBe(0)
  })
})

describe('brace limits on groups and share links', () => {
  const group = {
    name: 'eng',
    defaultAllow: '/eng/**',
    defaultDeny: '',
    queryField: 'tags',
    queryOperator: 'has',
    queryValue: 'eng',
  }

  it('refuse group patterns past the limit', async () => {
    const { auth } = await createAuthHarness()
    await expectAuthError(auth.groups.create({ ...group, defaultAllow: BOMB }), 'INVALID_INPUT')
    await expectAuthError(auth.groups.create({ ...group, defaultDeny: BOMB }), 'INVALID_INPUT')
    await auth.groups.create(group)
    await expectAuthError(auth.groups.update('eng', { defaultDeny: BOMB }), 'INVALID_INPUT')
  })

  it('give nothing from a stored group whose pattern is past the limit', async () => {
    const { auth, store, rootKey, signIn } = await createAuthHarness()
    const ada = await auth.users.create({ username: 'ada' })
    await auth.users.update(ada.userId, { tags: ['eng'] })
    const stored: Group = {
      ...group,
      queryField: 'tags',
      queryOperator: 'has',
      defaultAllow: '/**',
      defaultDeny: `/eng/secret/${BOMB}`,
      createdAt: 0,
      updatedAt: 0,
    }
    await store.createGroup(stored)
    const root = await signIn(rootKey)
    const { apiKey } = await auth.keys.createAdmin(root, { userId: ada.userId })
    const access = await auth.accessFor(await signIn(apiKey))
    expect(access.permissions('/eng/secret/111')).toBe('--------')
    expect(access.permissions('/eng/other')).toBe('--------')
  })

  it('treat braces in share link paths literally and refuse paths too long for a glob', async () => {
    const { auth, signIn } = await createAuthHarness()
    const link = await auth.shares.createLink({
      paths: [`/a{b,c}${BOMB}`],
      permissions: '-r--l---',
    })
    const access = await auth.accessFor(await signIn(link.key))
    expect(access.permissions(`/a{b,c}${BOMB}/x`)).toBe('-r--l---')
    expect(access.permissions('/ab/111/x')).toBe('--------')
    await expectAuthError(
      auth.shares.createLink({ paths: [`/${'x'.repeat(1100)}`], permissions: '-r--l---' }),
      'INVALID_INPUT',
    )
  })
})
