import { describe, expect, it } from 'vitest'
import { createKvIdentityStore } from '../store/kv-identity-store'
import { createMemoryKvStore } from '../store/kv-store'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError } from '../testing/expect-auth-error'

const DAY = 86_400_000

describe('refresh tokens', () => {
  it('rotate: each is used once and gives a new access token and refresh token', async () => {
    const { auth, rootKey, clock } = await createAuthHarness()
    const first = await auth.exchangeApiKey(rootKey)
    clock.advance(1000)
    const second = await auth.refresh(first.refreshToken)
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(second.expiresIn).toBe(3600)
    expect((await auth.authenticate(second.token)).isRoot).toBe(true)
    const third = await auth.refresh(second.refreshToken)
    expect((await auth.authenticate(third.token)).isRoot).toBe(true)
  })

  it('revoke the whole family when a rotated token is presented again', async () => {
    const { auth, rootKey } = await createAuthHarness()
    const first = await auth.exchangeApiKey(rootKey)
    const second = await auth.refresh(first.refreshToken)
    const err = await expectAuthError(auth.refresh(first.refreshToken), 'INVALID_CREDENTIAL')
    expect(err.message).toBe('invalid or expired refresh token')
    await expectAuthError(auth.refresh(second.refreshToken), 'INVALID_CREDENTIAL')
    // Another exchange starts a family of its own.
    const other = await auth.exchangeApiKey(rootKey)
    await auth.refresh(other.refreshToken)
  })

  it('keep the key id, so the key’s rules apply to refreshed tokens', async () => {
    const { auth, rootKey, signIn } = await createAuthHarness()
    const root = await signIn(rootKey)
    const scoped = await auth.keys.create(root, { rules: [{ '/docs/**': '-r--l---' }] })
    const grant = await auth.refresh((await auth.exchangeApiKey(scoped.key)).refreshToken)
    const principal = await auth.authenticate(grant.token)
    expect(principal).toMatchObject({ keyId: scoped.keyId, scoped: true, isRoot: false })
    expect(principal.rules).toEqual([{ '/docs/**': '-r--l---' }])
    const access = await auth.accessFor(principal)
    expect(access.permissions('/docs/a')).toBe('-r--l---')
    expect(access.permissions('/src/a')).toBe('--------')
  })

  it('expire after 30 days', async () => {
    const { auth, rootKey, clock } = await createAuthHarness()
    const first = await auth.exchangeApiKey(rootKey)
    const second = await auth.exchangeApiKey(rootKey)
    clock.advance(30 * DAY - 1)
    await auth.refresh(first.refreshToken)
    clock.advance(1)
    await expectAuthError(auth.refresh(second.refreshToken), 'INVALID_CREDENTIAL')
  })

  it('stop working once their key is revoked or its user deactivated', async () => {
    const { auth, rootKey, signIn } = await createAuthHarness()
    const root = await signIn(rootKey)
    const key = await auth.keys.create(root, {})
    const grant = await auth.exchangeApiKey(key.key)
    await auth.keys.revoke(root, key.keyId)
    await expectAuthError(auth.refresh(grant.refreshToken), 'INVALID_CREDENTIAL')
    const user = await auth.users.create({ username: 'dora' })
    const userKey = await auth.keys.create(root, { userId: user.userId })
    const userGrant = await auth.exchangeApiKey(userKey.key)
    await auth.users.deactivate(user.userId)
    await expectAuthError(auth.refresh(userGrant.refreshToken), 'INVALID_CREDENTIAL')
  })

  it('refuse malformed and unknown tokens with the same message', async () => {
    const { auth } = await createAuthHarness()
    for (const token of ['', 'rt_', `rt_${'A'.repeat(43)}`, 'svc_x', 'rt_'.padEnd(500, 'a')]) {
      const err = await expectAuthError(auth.refresh(token), 'INVALID_CREDENTIAL')
      expect(err.message).toBe('invalid or expired refresh token')
    }
  })

  it('let exactly one of 50 concurrent refreshes of one token succeed', async () => {
    const { auth, rootKey } = await createAuthHarness()
    const { refreshToken } = await auth.exchangeApiKey(rootKey)
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => auth.refresh(refreshToken)),
    )
    const won = results.filter((r) => r.status === 'fulfilled')
    expect(won).toHaveLength(1)
    // The 49 replays revoked the family, the winner's new refresh token included.
    const winner = won[0]?.status === 'fulfilled' ? won[0].value : undefined
    await expectAuthError(auth.refresh(winner?.refreshToken ?? ''), 'INVALID_CREDENTIAL')
  })
})

describe('failed credentials', () => {
  it('store nothing: wrong keys, refresh tokens and magic-link codes cost no write', async () => {
    const kv = createMemoryKvStore()
    const { auth, rootKey } = await createAuthHarness({ store: createKvIdentityStore(kv) })
    const snapshot = async () => JSON.stringify(await kv.entries(''))
    const before = await snapshot()
    const wrongSecret = `${rootKey.slice(0, -4)}AAAA`
    for (let i = 0; i < 50; i++) {
      await expectAuthError(auth.exchangeApiKey(wrongSecret), 'INVALID_CREDENTIAL')
      await expectAuthError(
        auth.exchangeApiKey(`svc_${'0'.repeat(16)}_x${i}`),
        'INVALID_CREDENTIAL',
      )
      await expectAuthError(auth.refresh(`rt_${'A'.repeat(43)}`), 'INVALID_CREDENTIAL')
      await expectAuthError(auth.verifyMagicLink('B'.repeat(43)), 'INVALID_CREDENTIAL')
    }
    expect(await snapshot()).toBe(before)
  })
})
