import { describe, expect, it } from 'vitest'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError } from '../testing/expect-auth-error'

const DAY = 86_400_000

describe('an API key given as the bearer credential', () => {
  it('authenticates as the token it would exchange for, rules included', async () => {
    const { auth, rootKey, signIn } = await createAuthHarness()
    const asRoot = await auth.authenticate(rootKey)
    expect(asRoot).toMatchObject({ isRoot: true, scoped: false })
    expect(asRoot).toEqual(await signIn(rootKey))

    const scoped = await auth.keys.create(asRoot, { rules: [{ '/docs/**': '-r--l---' }] })
    const principal = await auth.authenticate(scoped.key)
    expect(principal).toMatchObject({ keyId: scoped.keyId, scoped: true, isRoot: false })
    const access = await auth.accessFor(principal)
    expect(access.permissions('/docs/a')).toBe('-r--l---')
    expect(access.permissions('/src/a')).toBe('--------')
  })

  it('stops working at once when the key is revoked or its user deactivated', async () => {
    const { auth, rootKey } = await createAuthHarness()
    const root = await auth.authenticate(rootKey)
    const key = await auth.keys.create(root, {})
    await auth.authenticate(key.key)
    await auth.keys.revoke(root, key.keyId)
    await expectAuthError(auth.authenticate(key.key), 'INVALID_CREDENTIAL')

    const user = await auth.users.create({ username: 'erin' })
    const userKey = await auth.keys.create(root, { userId: user.userId })
    expect((await auth.authenticate(userKey.key)).userId).toBe(user.userId)
    await auth.users.deactivate(user.userId)
    await expectAuthError(auth.authenticate(userKey.key), 'INVALID_CREDENTIAL')
  })

  it('refuses an expired key', async () => {
    const { auth, rootKey, clock } = await createAuthHarness()
    const root = await auth.authenticate(rootKey)
    const key = await auth.keys.create(root, { expiresInDays: 1 })
    await auth.authenticate(key.key)
    clock.advance(DAY + 1)
    await expectAuthError(auth.authenticate(key.key), 'INVALID_CREDENTIAL')
  })

  it('refuses a wrong secret, a wrong form and malformed keys with one message', async () => {
    const { auth, rootKey } = await createAuthHarness()
    const wrongSecret = rootKey.slice(0, -4) + (rootKey.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    const wrongForm = rootKey.replace(/^svc_/, 'svc_k_')
    const messages = new Set<string>()
    for (const key of [wrongSecret, wrongForm, 'svc_', 'svc_zz', `${rootKey}x`]) {
      const err = await expectAuthError(auth.authenticate(key), 'INVALID_CREDENTIAL')
      messages.add(err.message)
    }
    expect(messages.size).toBe(1)
    // The real key still works after all those misses.
    expect((await auth.authenticate(rootKey)).isRoot).toBe(true)
  })
})
