import { describe, expect, it } from 'vitest'
import { createAuth } from './create-auth'
import { createMemoryIdentityStore } from './store/memory-identity-store'
import { createAuthHarness } from './testing/auth-harness'
import { expectAuthError as failure } from './testing/expect-auth-error'
import { ROOT_USER_ID } from './users/user'

const DAY = 86_400_000

describe('createAuth bootstrap', () => {
  it('produces a root key once, which signs in as root', async () => {
    const store = createMemoryIdentityStore()
    const auth = createAuth({ store })
    const first = await auth.bootstrap()
    expect(first.rootApiKey).toMatch(/^svc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(await auth.bootstrap()).toBe(await auth.bootstrap())
    // A restart (a new Auth over the same store) finds the key and prints nothing.
    expect(await createAuth({ store }).bootstrap()).toEqual({})
    const { token } = await auth.exchangeApiKey(first.rootApiKey ?? '')
    expect(await auth.authenticate(token)).toMatchObject({
      userId: ROOT_USER_ID,
      isRoot: true,
      scoped: false,
      rules: [],
    })
    expect(await auth.users.get(ROOT_USER_ID)).toMatchObject({ username: 'root', isActive: true })
  })

  it('produces a new root key when every root key is revoked', async () => {
    const { auth, store, signIn, rootKey } = await createAuthHarness()
    const root = await signIn(rootKey)
    const [key] = await auth.keys.listAdmin(root)
    await auth.keys.revokeAdmin(root, key?.keyId ?? '')
    expect((await createAuth({ store }).bootstrap()).rootApiKey).toMatch(/^svc_/)
  })

  it('treats every caller as root in disabled mode and issues no key', async () => {
    const auth = createAuth({ store: createMemoryIdentityStore(), mode: { kind: 'disabled' } })
    expect(await auth.bootstrap()).toEqual({})
    expect(await auth.authenticate(undefined)).toMatchObject({ isRoot: true, userId: ROOT_USER_ID })
    expect(await auth.authenticate('garbage')).toMatchObject({ isRoot: true })
  })

  it('refuses bad options at once', () => {
    const store = createMemoryIdentityStore()
    expect(() => createAuth({ store, accessTokenTtlSeconds: 0 })).toThrow(RangeError)
    expect(() => createAuth({ store, accessTokenTtlSeconds: 1.5 })).toThrow(RangeError)
    expect(() => createAuth({ store, cacheTtlMs: -1 })).toThrow(RangeError)
  })
})

describe('createAuth key exchange', () => {
  it('gives a one-hour token, its lifetime and a refresh token', async () => {
    const { auth, rootKey } = await createAuthHarness()
    const grant = await auth.exchangeApiKey(rootKey)
    expect(grant.expiresIn).toBe(3600)
    expect(grant.refreshToken).toMatch(/^rt_[A-Za-z0-9_-]{43}$/)
    const payload = JSON.parse(
      Buffer.from(grant.token.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>
    expect(payload).toMatchObject({ sub: ROOT_USER_ID, iss: 'svc' })
    expect(payload.exp).toBe((payload.iat as number) + 3600)
    expect(typeof payload.key_id).toBe('string')
  })

  it('refuses every bad key with one code and one message', async () => {
    const { auth, rootKey, clock, signIn } = await createAuthHarness()
    const root = await signIn(rootKey)
    const user = await auth.users.create({ username: 'alice' })
    const { key: selfKey, keyId } = await auth.keys.create(root, { userId: user.userId })
    const { key: shortKey } = await auth.keys.create(root, { expiresInDays: 1 })
    const wrongSecret = `${rootKey.slice(0, -1)}${rootKey.endsWith('A') ? 'B' : 'A'}`
    const unknownPrefix = `svc_ffffffffffffffff_${rootKey.slice(-43)}`
    const wrongForm = selfKey.replace('svc_k_', 'svc_')
    await auth.keys.revoke(root, keyId)
    const cases = [wrongSecret, unknownPrefix, wrongForm, 'svc_', '', 'x'.repeat(10_000), selfKey]
    const messages = new Set<string>()
    for (const key of cases)
      messages.add((await failure(auth.exchangeApiKey(key), 'INVALID_CREDENTIAL')).message)
    await auth.exchangeApiKey(shortKey)
    clock.advance(DAY)
    messages.add((await failure(auth.exchangeApiKey(shortKey), 'INVALID_CREDENTIAL')).message)
    expect([...messages]).toEqual(['invalid API key'])
  })

  it('refuses the key of a deactivated user, and their tokens at once', async () => {
    const { auth, rootKey, signIn } = await createAuthHarness()
    const root = await signIn(rootKey)
    const user = await auth.users.create({ username: 'bob' })
    const { key } = await auth.keys.create(root, { userId: user.userId })
    const { token } = await auth.exchangeApiKey(key)
    await auth.authenticate(token)
    await auth.users.deactivate(user.userId)
    await failure(auth.authenticate(token), 'INVALID_CREDENTIAL')
    await failure(auth.exchangeApiKey(key), 'INVALID_CREDENTIAL')
    await auth.users.update(user.userId, { isActive: true })
    expect((await auth.authenticate(token)).userId).toBe(user.userId)
  })

  it('stops accepting a token once its key is revoked or has expired', async () => {
    const { auth, rootKey, signIn, clock } = await createAuthHarness()
    const root = await signIn(rootKey)
    const revoked = await auth.keys.create(root, {})
    const { token } = await auth.exchangeApiKey(revoked.key)
    await auth.keys.revoke(root, revoked.keyId)
    await failure(auth.authenticate(token), 'INVALID_CREDENTIAL')
    const short = await auth.keys.create(root, { expiresInDays: 1 })
    clock.advance(DAY - 30 * 60_000)
    const late = await auth.exchangeApiKey(short.key)
    await auth.authenticate(late.token)
    clock.advance(31 * 60_000)
    await failure(auth.authenticate(late.token), 'INVALID_CREDENTIAL')
  })

  it('refuses expired, empty and foreign tokens', async () => {
    const { auth, rootKey, clock } = await createAuthHarness()
    const { token } = await auth.exchangeApiKey(rootKey)
    await failure(auth.authenticate(undefined), 'INVALID_CREDENTIAL')
    await failure(auth.authenticate(''), 'INVALID_CREDENTIAL')
    const other = await createAuthHarness()
    await failure(
      auth.authenticate((await other.auth.exchangeApiKey(other.rootKey)).token),
      'INVALID_CREDENTIAL',
    )
    clock.advance(3600_000)
    await failure(auth.authenticate(token), 'INVALID_CREDENTIAL')
  })

  it('reuses one signing key across instances over the same store', async () => {
    const store = createMemoryIdentityStore()
    const a = createAuth({ store })
    const { rootApiKey } = await a.bootstrap()
    const { token } = await a.exchangeApiKey(rootApiKey ?? '')
    expect((await createAuth({ store }).authenticate(token)).isRoot).toBe(true)
  })
})
