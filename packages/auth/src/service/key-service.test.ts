import { describe, expect, it } from 'vitest'
import { createMemoryIdentityStore } from '../store/memory-identity-store'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError } from '../testing/expect-auth-error'
import { ROOT_USER_ID } from '../users/user'

const DAY = 86_400_000

const setUp = async () => {
  const harness = await createAuthHarness()
  const { auth, rootKey, signIn } = harness
  const root = await signIn(rootKey)
  const alice = await auth.users.create({ username: 'alice' })
  const aliceKey = await auth.keys.createAdmin(root, { userId: alice.userId })
  const asAlice = await signIn(aliceKey.apiKey)
  return { ...harness, root, alice, aliceKey, asAlice }
}

describe('administrative keys', () => {
  it('are created by root for a user, shown once, and listed without secrets', async () => {
    const { auth, root, alice, aliceKey, clock } = await setUp()
    expect(Object.keys(aliceKey).sort()).toEqual(['apiKey', 'createdAt', 'keyId', 'userId'])
    expect(aliceKey.apiKey).toMatch(/^svc_[0-9a-f]{16}_/)
    expect(aliceKey.apiKey.slice(4, 20)).toBe(aliceKey.keyId.replaceAll('-', '').slice(0, 16))
    expect(aliceKey).toMatchObject({
      userId: alice.userId,
      createdAt: new Date(clock.now()).toISOString(),
    })
    const own = await auth.keys.createAdmin(root)
    expect(own.userId).toBe(ROOT_USER_ID)
    await auth.keys.revokeAdmin(root, own.keyId)
    const listed = await auth.keys.listAdmin(root)
    expect(listed).toHaveLength(3)
    for (const view of listed) {
      expect(Object.keys(view).sort()).toEqual(['createdAt', 'isRevoked', 'keyId', 'userId'])
    }
    expect(listed.find((k) => k.keyId === own.keyId)?.isRevoked).toBe(true)
    expect(JSON.stringify(listed)).not.toContain(aliceKey.apiKey.slice(21))
  })

  it('are root only and check their input', async () => {
    const { auth, root, asAlice } = await setUp()
    await expectAuthError(auth.keys.createAdmin(asAlice), 'FORBIDDEN')
    await expectAuthError(auth.keys.listAdmin(asAlice), 'FORBIDDEN')
    await expectAuthError(auth.keys.revokeAdmin(asAlice, ROOT_USER_ID), 'FORBIDDEN')
    await expectAuthError(auth.keys.createAdmin(root, { userId: 'nope' }), 'INVALID_INPUT')
    await expectAuthError(
      auth.keys.createAdmin(root, { userId: '11111111-1111-4111-8111-111111111111' }),
      'NOT_FOUND',
    )
    await expectAuthError(auth.keys.revokeAdmin(root, 'not-a-uuid'), 'INVALID_INPUT')
    await expectAuthError(
      auth.keys.revokeAdmin(root, '11111111-1111-4111-8111-111111111111'),
      'NOT_FOUND',
    )
  })

  it('are not root keys when root holds a scoped key', async () => {
    const { auth, root, signIn } = await setUp()
    const scoped = await auth.keys.create(root, { rules: [{ '/**': 'crudlify' }] })
    const asScopedRoot = await signIn(scoped.key)
    expect(asScopedRoot).toMatchObject({ userId: ROOT_USER_ID, isRoot: false, scoped: true })
    await expectAuthError(auth.keys.createAdmin(asScopedRoot), 'FORBIDDEN')
  })
})

describe('self-service keys', () => {
  it('are shown once as svc_k_… with the spec’s creation fields', async () => {
    const { auth, asAlice, alice, clock } = await setUp()
    const created = await auth.keys.create(asAlice, {
      label: 'laptop',
      rules: [{ '/docs/**': '-r--l---' }],
    })
    expect(Object.keys(created).sort()).toEqual([
      'expiresAt',
      'key',
      'keyId',
      'label',
      'rules',
      'userId',
    ])
    expect(created).toMatchObject({
      userId: alice.userId,
      label: 'laptop',
      expiresAt: clock.now() + 730 * DAY,
      rules: [{ '/docs/**': '-r--l---' }],
    })
    expect(created.key).toMatch(/^svc_k_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    const principal = await auth.authenticate((await auth.exchangeApiKey(created.key)).token)
    expect(principal).toMatchObject({ userId: alice.userId, keyId: created.keyId, scoped: true })
  })

  it('take an expiry of 1 to 3650 days', async () => {
    const { auth, asAlice, clock } = await setUp()
    expect((await auth.keys.create(asAlice, { expiresInDays: 1 })).expiresAt).toBe(
      clock.now() + DAY,
    )
    expect((await auth.keys.create(asAlice, { expiresInDays: 3650 })).expiresAt).toBe(
      clock.now() + 3650 * DAY,
    )
    for (const expiresInDays of [0, 3651, 1.5, -1, Number.NaN]) {
      await expectAuthError(auth.keys.create(asAlice, { expiresInDays }), 'INVALID_INPUT')
    }
  })

  it('check labels and rules', async () => {
    const { auth, asAlice } = await setUp()
    await expectAuthError(auth.keys.create(asAlice, { label: 'x'.repeat(201) }), 'INVALID_INPUT')
    await expectAuthError(auth.keys.create(asAlice, { label: 'a\nb' }), 'INVALID_INPUT')
    await expectAuthError(auth.keys.create(asAlice, { rules: [{ '/a': 'rw' }] }), 'INVALID_INPUT')
  })

  it('are listed without secrets or revoked keys; root sees everyone’s', async () => {
    const { auth, root, asAlice, alice, clock } = await setUp()
    clock.advance(1)
    const kept = await auth.keys.create(asAlice, { label: 'kept' })
    const gone = await auth.keys.create(asAlice, { label: 'gone' })
    expect(await auth.keys.revoke(asAlice, gone.keyId)).toEqual({
      revoked: true,
      keyId: gone.keyId,
    })
    const mine = await auth.keys.list(asAlice)
    expect(mine.map((k) => k.label)).toEqual([undefined, 'kept'])
    expect(mine.every((k) => k.userId === alice.userId)).toBe(true)
    for (const view of mine) {
      expect(
        Object.keys(view).every((f) =>
          ['keyId', 'userId', 'label', 'expiresAt', 'createdAt', 'rules'].includes(f),
        ),
      ).toBe(true)
    }
    expect(JSON.stringify(mine)).not.toContain(kept.key.slice(22))
    const all = await auth.keys.list(root)
    expect(all.some((k) => k.userId === ROOT_USER_ID)).toBe(true)
    expect(all.some((k) => k.keyId === kept.keyId)).toBe(true)
    expect(all.some((k) => k.keyId === gone.keyId)).toBe(false)
  })

  it('are for the caller unless root says otherwise', async () => {
    const { auth, root, asAlice, alice } = await setUp()
    await expectAuthError(auth.keys.create(asAlice, { userId: alice.userId }), 'FORBIDDEN')
    const made = await auth.keys.create(root, { userId: alice.userId })
    expect(made.userId).toBe(alice.userId)
  })

  it('can be revoked by their holder or root; another user’s key looks absent', async () => {
    const { auth, root, asAlice, signIn } = await setUp()
    const bob = await auth.users.create({ username: 'bob' })
    const asBob = await signIn((await auth.keys.createAdmin(root, { userId: bob.userId })).apiKey)
    const bobs = await auth.keys.create(asBob, {})
    await expectAuthError(auth.keys.revoke(asAlice, bobs.keyId), 'NOT_FOUND')
    await expectAuthError(auth.keys.revoke(asAlice, 'xyz'), 'INVALID_INPUT')
    expect((await auth.keys.revoke(root, bobs.keyId)).revoked).toBe(true)
    await expectAuthError(auth.exchangeApiKey(bobs.key), 'INVALID_CREDENTIAL')
  })

  it('cannot be managed with a scoped key, which could otherwise mint a wider one', async () => {
    const { auth, asAlice, signIn } = await setUp()
    const scoped = await auth.keys.create(asAlice, { rules: [{ '/a/**': 'crudlify' }] })
    const asScoped = await signIn(scoped.key)
    await expectAuthError(auth.keys.create(asScoped, {}), 'FORBIDDEN')
    await expectAuthError(auth.keys.list(asScoped), 'FORBIDDEN')
    await expectAuthError(auth.keys.revoke(asScoped, scoped.keyId), 'FORBIDDEN')
  })

  it('retry a key id whose prefix is taken', async () => {
    // The first two ids drawn are equal; the key store refuses the second prefix.
    let calls = 0
    const random = {
      bytes: (n: number) => {
        const b = new Uint8Array(n)
        if (n === 16) b.fill(calls++ < 2 ? 1 : calls)
        else b.fill(7 + calls)
        return b
      },
    }
    const { auth, rootKey, signIn } = await createAuthHarness({
      store: createMemoryIdentityStore(),
      random,
    })
    const root = await signIn(rootKey)
    const made = await auth.keys.create(root, {})
    expect(made.keyId).not.toBe((await auth.keys.list(root))[0]?.keyId)
    expect(await auth.keys.list(root)).toHaveLength(2)
  })
})
