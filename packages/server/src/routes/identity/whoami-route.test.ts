import { ROOT_USER_ID } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { expectError, identityRoutes, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let t: TestApp

beforeEach(async () => {
  t = await startTestApp(identityRoutes)
})
afterEach(() => t.close())

const whoami = async (token: string) => {
  const res = await t.call('GET', '/auth/whoami', { token })
  expect(res.status).toBe(200)
  return v.parse(routes.authWhoami.response, await res.json())
}

const keyIdOf = async (token: string) => {
  const res = await t.call('GET', '/auth/keys', { token })
  return v.parse(routes.authKeysList.response, await res.json())[0]?.key_id
}

describe('GET /auth/whoami', () => {
  it('answer root, unrestricted, for the root key as a token and as the bearer itself', async () => {
    const expected = {
      user_id: ROOT_USER_ID,
      username: 'root',
      email: null,
      is_root: true,
      key_id: await keyIdOf(t.rootToken),
      scoped: false,
      rules: [],
    }
    expect(await whoami(t.rootToken)).toEqual(expected)
    expect(await whoami(t.rootKey)).toEqual(expected)
  })

  it('answer a user key with its user, and a scoped key with its rules in order', async () => {
    const { userId, token, apiKey } = await t.userWithToken('ada', 'ada@example.com')
    const plain = await whoami(token)
    expect(plain).toMatchObject({
      user_id: userId,
      username: 'ada',
      email: 'ada@example.com',
      is_root: false,
      scoped: false,
      rules: [],
    })
    expect(await whoami(apiKey)).toEqual(plain)

    const rules = [{ '/docs/**': '-r--l---' }, { '/**': '--------' }]
    const created = await t.call('POST', '/auth/keys', { token, body: { rules } })
    const { key, key_id } = v.parse(routes.authKeysCreate.response, await created.json())
    expect(await whoami(await t.tokenFor(key))).toEqual({
      user_id: userId,
      username: 'ada',
      email: 'ada@example.com',
      is_root: false,
      key_id,
      scoped: true,
      rules,
    })
  })

  it('answer key_id null for a magic-link token', async () => {
    const { userId } = await t.userWithToken('bea', 'bea@example.com')
    await t.call('POST', '/auth/magic-link', { body: { email: 'bea@example.com' } })
    await t.auth.idle()
    const code = t.links[0]?.code ?? ''
    const verified = await t.call('GET', `/auth/magic-link/verify?code=${code}`)
    const { token } = v.parse(routes.authMagicLinkVerify.response, await verified.json())
    expect(await whoami(token)).toMatchObject({ user_id: userId, username: 'bea', key_id: null })
  })

  it('answer root without a key under --auth disabled', async () => {
    const open = await startTestApp(identityRoutes, { auth: { mode: { kind: 'disabled' } } })
    onTestFinished(() => open.close())
    const res = await open.call('GET', '/auth/whoami')
    expect(res.status).toBe(200)
    expect(v.parse(routes.authWhoami.response, await res.json())).toEqual({
      user_id: ROOT_USER_ID,
      username: 'root',
      email: null,
      is_root: true,
      key_id: null,
      scoped: false,
      rules: [],
    })
  })

  it('answer 401 without a credential or with a revoked key', async () => {
    await expectError(await t.call('GET', '/auth/whoami'), 401, 'UNAUTHORIZED')
    const { apiKey, token } = await t.userWithToken('cy')
    const keyId = await keyIdOf(token)
    const revoked = await t.call('DELETE', `/auth/keys/${keyId}`, { token })
    expect(revoked.status).toBe(200)
    await expectError(await t.call('GET', '/auth/whoami', { token: apiKey }), 401, 'UNAUTHORIZED')
  })
})
