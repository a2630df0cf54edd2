import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import type { IdentityStore } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectError, identityCaller, identityRoutes, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

const DAY_MS = 86_400_000
const UNKNOWN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e'

let t: TestApp

beforeEach(async () => {
  t = await startTestApp(identityRoutes)
})
afterEach(() => t.close())

const json = async (res: Response, status: number) => {
  expect(res.status).toBe(status)
  return (await res.json()) as unknown
}

describe('POST /auth/token and POST /auth/refresh', () => {
  it('exchange a key for a token and rotate the refresh token, refusing the old one', async () => {
    const grant = v.parse(
      routes.authToken.response,
      await json(await t.call('POST', '/auth/token', { body: { api_key: t.rootKey } }), 200),
    )
    expect(grant.expires_in).toBe(3600)
    expect(grant.refresh_token).toMatch(/^rt_/)
    expect((await t.call('GET', '/auth/keys', { token: grant.token })).status).toBe(200)

    const refresh = (refresh_token: string) =>
      t.call('POST', '/auth/refresh', { body: { refresh_token } })
    const next = v.parse(
      routes.authRefresh.response,
      await json(await refresh(grant.refresh_token), 200),
    )
    expect(Object.keys(next).sort()).toEqual(['expires_in', 'refresh_token', 'token'])
    expect(Number.isInteger(next.expires_in)).toBe(true)
    expect(next.refresh_token).not.toBe(grant.refresh_token)
    expect((await t.call('GET', '/auth/keys', { token: next.token })).status).toBe(200)

    await expectError(await refresh(grant.refresh_token), 401, 'UNAUTHORIZED')
    // Reusing a rotated token revokes its whole family (DESIGN §4).
    await expectError(await refresh(next.refresh_token), 401, 'UNAUTHORIZED')
  })

  it('refuse a malformed, unknown, revoked or expired key with 401', async () => {
    const exchange = (api_key: string) => t.call('POST', '/auth/token', { body: { api_key } })
    const newKey = async (body: object) =>
      (await json(await t.call('POST', '/auth/keys', { token: t.rootToken, body }), 201)) as {
        key: string
        key_id: string
      }
    const shortLived = await newKey({ expires_in_days: 1 })
    const revoked = await newKey({})
    expect((await exchange(shortLived.key)).status).toBe(200)
    expect((await exchange(revoked.key)).status).toBe(200)
    await t.call('DELETE', `/auth/keys/${revoked.key_id}`, { token: t.rootToken })
    t.clock.advance(DAY_MS)
    const malformed = ['', 'nope', t.rootKey.replace('svc_', 'svc_k_')]
    const unknown = `svc_${'0'.repeat(16)}_${'a'.repeat(43)}`
    for (const apiKey of [...malformed, unknown, shortLived.key, revoked.key]) {
      const err = await expectError(await exchange(apiKey), 401, 'UNAUTHORIZED')
      expect(err.message).toBe('invalid API key')
    }
    expect((await exchange(t.rootKey)).status).toBe(200)
  })

  it('answer 400 for a body without the credential, and 401 for an unknown refresh token', async () => {
    await expectError(await t.call('POST', '/auth/token', { body: {} }), 400, 'VALIDATION_FAILED')
    await expectError(await t.call('POST', '/auth/token'), 400, 'VALIDATION_FAILED')
    await expectError(
      await t.call('POST', '/auth/refresh', { body: { refresh_token: 'rt_unknown' } }),
      401,
      'UNAUTHORIZED',
    )
  })

  it('ignore a stale Authorization header: token exchange needs no credential', async () => {
    const res = await t.call('POST', '/auth/token', {
      body: { api_key: t.rootKey },
      headers: { authorization: 'Bearer expired.or.junk' },
    })
    expect(res.status).toBe(200)
  })

  it('answer 500 INTERNAL when the token cannot be created', async () => {
    // A second server on the same store whose signing key cannot be read: the key checks out,
    // signing fails.
    const store = createMemoryIdentityStore()
    const { rootApiKey } = await createAuth({ store }).bootstrap()
    const unreadable: IdentityStore = {
      ...store,
      getSigningKey: () => Promise.reject(new Error('disk gone')),
    }
    const call = identityCaller(createAuth({ store: unreadable }))
    const res = await call('POST', '/auth/token', { body: { api_key: rootApiKey } })
    const err = await expectError(res, 500, 'INTERNAL')
    expect(err.message).toBe('could not create an access token')
    expect(JSON.stringify(err)).not.toContain('disk gone')
  })
})

describe('magic links', () => {
  it('send a single-use code that verify exchanges for a token without a refresh token', async () => {
    const { userId } = await t.userWithToken('ada', 'ada@example.com')
    const asked = await t.call('POST', '/auth/magic-link', { body: { email: 'ADA@example.com' } })
    const { message } = v.parse(routes.authMagicLink.response, await json(asked, 200))
    await t.auth.idle()
    expect(t.links).toHaveLength(1)
    const code = t.links[0]?.code ?? ''
    expect(t.links[0]).toMatchObject({ email: 'ada@example.com', userId })

    const verify = () => t.call('GET', `/auth/magic-link/verify?code=${encodeURIComponent(code)}`)
    const grant = await json(await verify(), 200)
    expect(Object.keys(grant as object).sort()).toEqual(['expires_in', 'token'])
    const { token, expires_in } = v.parse(routes.authMagicLinkVerify.response, grant)
    expect(expires_in).toBe(3600)
    const keys = await t.call('POST', '/auth/keys', { token, body: {} })
    expect(((await json(keys, 201)) as { user_id: string }).user_id).toBe(userId)

    await expectError(await verify(), 401, 'UNAUTHORIZED')

    // The same answer for an address nobody has, and nothing is sent.
    const nobody = await t.call('POST', '/auth/magic-link', {
      body: { email: 'nobody@example.com' },
    })
    expect(await json(nobody, 200)).toEqual({ message })
    await t.auth.idle()
    expect(t.links).toHaveLength(1)
  })

  it('refuse an unknown, malformed, expired or missing code', async () => {
    await t.userWithToken('ada', 'ada@example.com')
    await t.call('POST', '/auth/magic-link', { body: { email: 'ada@example.com' } })
    await t.auth.idle()
    t.clock.advance(15 * 60_000)
    const expired = t.links[0]?.code ?? ''
    for (const code of [expired, 'nope', `${expired.slice(0, -1)}A`]) {
      const path = `/auth/magic-link/verify?code=${encodeURIComponent(code)}`
      await expectError(await t.call('GET', path), 401, 'UNAUTHORIZED')
    }
    await expectError(await t.call('GET', '/auth/magic-link/verify'), 400, 'VALIDATION_FAILED')
    await expectError(
      await t.call('POST', '/auth/magic-link', { body: { email: 'not an address' } }),
      400,
      'BAD_REQUEST',
    )
  })

  it('answer 429 with Retry-After past 5 requests per address in 15 minutes', async () => {
    const ask = (email: string) => t.call('POST', '/auth/magic-link', { body: { email } })
    for (let i = 0; i < 5; i++) expect((await ask('ada@example.com')).status).toBe(200)
    t.clock.advance(60_000)
    const limited = await ask('Ada@Example.com')
    const err = await expectError(limited, 429, 'RATE_LIMITED')
    expect(err.message).toContain('too many')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBe(14 * 60)
    // Another address has its own budget; the limited one recovers after the window.
    expect((await ask('bob@example.com')).status).toBe(200)
    t.clock.advance(retryAfter * 1000)
    expect((await ask('ada@example.com')).status).toBe(200)
  })
})

describe('administrative keys', () => {
  it('create keys for the caller or a user, list them with metadata and revoke them', async () => {
    const { userId } = await t.userWithToken('ada')
    const mine = await json(await t.call('POST', '/auth/keys/admin', { token: t.rootToken }), 201)
    const own = v.parse(routes.authAdminKeysCreate.response, mine)
    expect(own.user_id).toBe('00000000-0000-0000-0000-000000000000')
    expect(own.api_key).toMatch(/^svc_[0-9a-f]{16}_/)
    expect(typeof own.created_at).toBe('string')
    expect(own.created_at).toBe(new Date(t.clock.now()).toISOString())

    const forAda = v.parse(
      routes.authAdminKeysCreate.response,
      await json(
        await t.call('POST', '/auth/keys/admin', { token: t.rootToken, body: { user_id: userId } }),
        201,
      ),
    )
    expect(forAda.user_id).toBe(userId)
    const adaToken = await t.tokenFor(forAda.api_key)

    const revoke = (id: string) =>
      t.call('DELETE', `/auth/keys/admin/${id}`, { token: t.rootToken })
    expect(await json(await revoke(forAda.key_id), 200)).toEqual({
      revoked: true,
      key_id: forAda.key_id,
    })
    await expectError(
      await t.call('POST', '/auth/token', { body: { api_key: forAda.api_key } }),
      401,
      'UNAUTHORIZED',
    )
    // Its tokens stop working at once.
    await expectError(await t.call('GET', '/auth/keys', { token: adaToken }), 401, 'UNAUTHORIZED')

    const list = v.parse(
      routes.authAdminKeysList.response,
      await json(await t.call('GET', '/auth/keys/admin', { token: t.rootToken }), 200),
    )
    const byId = new Map(list.items.map((key) => [key.key_id, key]))
    expect(byId.get(forAda.key_id)).toEqual({
      key_id: forAda.key_id,
      user_id: userId,
      created_at: forAda.created_at,
      is_revoked: true,
    })
    expect(byId.get(own.key_id)?.is_revoked).toBe(false)
    expect(JSON.stringify(list)).not.toContain(own.api_key.slice(-20))
  })

  it('answer 400 for a malformed key id or user id and 404 for unknown ones', async () => {
    for (const id of ['nope', '0f8fad5bd9cb469fa16570867728950e', `${UNKNOWN_ID}x`]) {
      const res = await t.call('DELETE', `/auth/keys/admin/${id}`, { token: t.rootToken })
      const err = await expectError(res, 400, 'VALIDATION_FAILED')
      expect(err.details?.[0]?.path).toBe('params.key_id')
    }
    await expectError(
      await t.call('DELETE', `/auth/keys/admin/${UNKNOWN_ID}`, { token: t.rootToken }),
      404,
      'NOT_FOUND',
    )
    await expectError(
      await t.call('POST', '/auth/keys/admin', { token: t.rootToken, body: { user_id: 'ada' } }),
      400,
      'VALIDATION_FAILED',
    )
    await expectError(
      await t.call('POST', '/auth/keys/admin', {
        token: t.rootToken,
        body: { user_id: UNKNOWN_ID },
      }),
      404,
      'NOT_FOUND',
    )
  })
})

describe('self-service keys', () => {
  it('create a key with defaults: svc_k_ string, 730 days in integer ms, no rules', async () => {
    const { token, userId } = await t.userWithToken('ada')
    const res = await t.call('POST', '/auth/keys', { token })
    const created = v.parse(routes.authKeysCreate.response, await json(res, 201))
    expect(created).toEqual({
      key_id: expect.any(String),
      key: expect.stringMatching(/^svc_k_[0-9a-f]{16}_/),
      user_id: userId,
      expires_at: t.clock.now() + 730 * DAY_MS,
      rules: [],
    })
    expect(Number.isInteger(created.expires_at)).toBe(true)
    expect((await t.call('POST', '/auth/token', { body: { api_key: created.key } })).status).toBe(
      200,
    )
  })

  it('keep label, lifetime and rules, and list keys as a bare array without secrets', async () => {
    const { token, userId } = await t.userWithToken('ada')
    const rules = [{ '/docs/**': '-r--l---' }, { '/**': '--------' }]
    const body = { label: 'laptop', expires_in_days: 3650, rules }
    // Keys list oldest first.
    t.clock.advance(1000)
    const created = v.parse(
      routes.authKeysCreate.response,
      await json(await t.call('POST', '/auth/keys', { token, body }), 201),
    )
    const createdAt = t.clock.now()
    expect(created).toMatchObject({ label: 'laptop', rules, expires_at: createdAt + 3650 * DAY_MS })
    t.clock.advance(1000)
    const other = v.parse(
      routes.authKeysCreate.response,
      await json(await t.call('POST', '/auth/keys', { token, body: {} }), 201),
    )
    expect('label' in other).toBe(false)

    const listed = await json(await t.call('GET', '/auth/keys', { token }), 200)
    expect(Array.isArray(listed)).toBe(true)
    const keys = v.parse(routes.authKeysList.response, listed)
    // The admin key the user signed in with is theirs too, so it is listed first.
    expect(keys.map((k) => k.key_id).slice(1)).toEqual([created.key_id, other.key_id])
    expect(keys[1]).toEqual({
      key_id: created.key_id,
      user_id: userId,
      label: 'laptop',
      expires_at: created.expires_at,
      created_at: createdAt,
      rules,
    })
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(-20))

    // Revoked keys are left out.
    const revoked = await t.call('DELETE', `/auth/keys/${other.key_id}`, { token })
    expect(await json(revoked, 200)).toEqual({ revoked: true, key_id: other.key_id })
    const after = (await json(await t.call('GET', '/auth/keys', { token }), 200)) as {
      key_id: string
    }[]
    expect(after.map((k) => k.key_id)).toEqual([keys[0]?.key_id, created.key_id])
  })

  it('show root every key, a user only their own', async () => {
    const ada = await t.userWithToken('ada')
    const bob = await t.userWithToken('bob')
    const create = (token: string) =>
      t.call('POST', '/auth/keys', { token, body: {} }).then((r) => json(r, 201))
    const adaKey = (await create(ada.token)) as { key_id: string }
    const bobKey = (await create(bob.token)) as { key_id: string }
    const ids = async (token: string) =>
      ((await json(await t.call('GET', '/auth/keys', { token }), 200)) as { key_id: string }[]).map(
        (k) => k.key_id,
      )
    const adaSees = await ids(ada.token)
    expect(adaSees).toContain(adaKey.key_id)
    expect(adaSees).not.toContain(bobKey.key_id)
    expect(adaSees).toHaveLength(2) // with the admin key ada signed in with
    const rootSees = await ids(t.rootToken)
    expect(rootSees).toEqual(expect.arrayContaining([...adaSees, bobKey.key_id]))
    expect(rootSees).toHaveLength(5) // with root's bootstrap key
  })

  it('let only root create a key for another user (403 otherwise)', async () => {
    const ada = await t.userWithToken('ada')
    const bob = await t.userWithToken('bob')
    await expectError(
      await t.call('POST', '/auth/keys', { token: ada.token, body: { user_id: bob.userId } }),
      403,
      'FORBIDDEN',
    )
    const forBob = await t.call('POST', '/auth/keys', {
      token: t.rootToken,
      body: { user_id: bob.userId },
    })
    expect(((await json(forBob, 201)) as { user_id: string }).user_id).toBe(bob.userId)
  })

  it.each([
    { expires_in_days: 0 },
    { expires_in_days: 3651 },
    { expires_in_days: 1.5 },
    { rules: [{ '/a': 'crudlify', '/b': '--------' }] },
    { rules: [{ '/a': 'crudlif' }] },
    { rules: [{ '/a': 'rcudlify' }] },
    { rules: [{}] },
    { rules: [{ 'a/**': 'crudlify' }] },
    { rules: { '/a': 'crudlify' } },
    { user_id: 'ada' },
    { label: 7 },
  ])('answer 400 to the body %j', async (body) => {
    await expectError(await t.call('POST', '/auth/keys', { token: t.rootToken, body }), 400)
  })

  it('answer 400 for label characters auth refuses, naming the field', async () => {
    const res = await t.call('POST', '/auth/keys', {
      token: t.rootToken,
      body: { label: 'bad\nlabel' },
    })
    const err = await expectError(res, 400, 'BAD_REQUEST')
    expect(err.message).toMatch(/^label: /)
  })

  it("answer 404 when a user revokes another user's key; root may revoke any", async () => {
    const ada = await t.userWithToken('ada')
    const bob = await t.userWithToken('bob')
    const { key_id } = (await json(
      await t.call('POST', '/auth/keys', { token: bob.token, body: {} }),
      201,
    )) as { key_id: string }
    await expectError(
      await t.call('DELETE', `/auth/keys/${key_id}`, { token: ada.token }),
      404,
      'NOT_FOUND',
    )
    await expectError(
      await t.call('DELETE', '/auth/keys/not-a-uuid', { token: ada.token }),
      400,
      'VALIDATION_FAILED',
    )
    const res = await t.call('DELETE', `/auth/keys/${key_id}`, { token: t.rootToken })
    expect(await json(res, 200)).toEqual({ revoked: true, key_id })
  })
})
