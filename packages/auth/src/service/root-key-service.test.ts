import { describe, expect, it } from 'vitest'
import { createAuth } from '../create-auth'
import { createMemoryIdentityStore } from '../store/memory-identity-store'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError as failure } from '../testing/expect-auth-error'
import { ROOT_USER_ID } from '../users/user'

describe('root key lifecycle', () => {
  it('prepare mints no key, so a start that fails before ensureRootKey leaves it for the next', async () => {
    const store = createMemoryIdentityStore()
    const failedStart = createAuth({ store })
    await failedStart.prepare()
    expect(await store.listApiKeys()).toEqual([])
    expect(await store.getUser(ROOT_USER_ID)).toMatchObject({ username: 'root' })
    const next = createAuth({ store })
    await next.prepare()
    const { rootApiKey } = await next.ensureRootKey()
    expect(rootApiKey).toMatch(/^svc_[0-9a-f]{16}_/)
    expect(await next.ensureRootKey()).toEqual({ rootApiKey })
    expect(await createAuth({ store }).ensureRootKey()).toEqual({})
  })

  it('ensureRootKey mints nothing in disabled mode', async () => {
    const store = createMemoryIdentityStore()
    expect(await createAuth({ store, mode: { kind: 'disabled' } }).ensureRootKey()).toEqual({})
    expect(await store.listApiKeys()).toEqual([])
  })

  it('resetRootKey mints a working root key and keeps the old ones by default', async () => {
    const { auth, store, signIn, rootKey } = await createAuthHarness()
    const root = await signIn(rootKey)
    const alice = await auth.users.create({ username: 'alice' })
    const aliceKey = await auth.keys.createAdmin(root, { userId: alice.userId })
    const reset = await createAuth({ store }).resetRootKey()
    expect(reset.revokedKeyIds).toEqual([])
    expect(reset.rootApiKey).toMatch(/^svc_[0-9a-f]{16}_/)
    expect(await signIn(reset.rootApiKey)).toMatchObject({ isRoot: true, scoped: false })
    expect((await signIn(rootKey)).isRoot).toBe(true)
    expect((await signIn(aliceKey.apiKey)).userId).toBe(alice.userId)
  })

  it('resetRootKey with revokeOthers revokes every other root key, and only those', async () => {
    const { auth, store, signIn, rootKey } = await createAuthHarness({ cacheTtlMs: 0 })
    const root = await signIn(rootKey)
    const second = await auth.keys.createAdmin(root)
    const scoped = await auth.keys.create(root, { rules: [{ '/a/**': '-r------' }] })
    const alice = await auth.users.create({ username: 'alice' })
    const aliceKey = await auth.keys.createAdmin(root, { userId: alice.userId })
    const { refreshToken } = await auth.exchangeApiKey(rootKey)
    const reset = await createAuth({ store }).resetRootKey({ revokeOthers: true })
    expect(reset.revokedKeyIds).toHaveLength(3)
    for (const old of [rootKey, second.apiKey, scoped.key])
      await failure(auth.exchangeApiKey(old), 'INVALID_CREDENTIAL')
    // A refresh chain of a revoked key ends with it.
    await failure(auth.refresh(refreshToken), 'INVALID_CREDENTIAL')
    expect((await signIn(reset.rootApiKey)).isRoot).toBe(true)
    expect((await signIn(aliceKey.apiKey)).userId).toBe(alice.userId)
  })
})
