import { createAuth, createMemoryIdentityStore, ROOT_PRINCIPAL, ROOT_USER_ID } from '@svcdb/auth'
import type { Auth } from '@svcdb/auth'
import { beforeEach, describe, expect, it } from 'vitest'
import { isServerError } from '../errors/server-error'
import { createBearerAuthenticator } from './bearer-authenticator'

let auth: Auth
let token: string

beforeEach(async () => {
  auth = createAuth({ store: createMemoryIdentityStore() })
  const { rootApiKey } = await auth.bootstrap()
  ;({ token } = await auth.exchangeApiKey(rootApiKey ?? ''))
})

const request = (authorization?: string) =>
  new Request('http://svcdb.test/auth/keys', {
    headers: authorization === undefined ? {} : { authorization },
  })

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(isServerError(err, 'UNAUTHORIZED'), String(err)).toBe(true)
  return err as Error
}

describe('createBearerAuthenticator', () => {
  it('finds no caller when the request has no Authorization header', async () => {
    expect(await createBearerAuthenticator(auth).authenticate(request())).toBeUndefined()
  })

  it('establishes the caller of a valid bearer token, whatever the scheme case', async () => {
    const authenticator = createBearerAuthenticator(auth)
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`]) {
      expect(await authenticator.authenticate(request(header))).toMatchObject({
        userId: ROOT_USER_ID,
        isRoot: true,
      })
    }
  })

  it.each(['', 'Bearer', 'Bearer ', `Basic ${token}`, `Token ${token}`, `Bearer ${token} extra`])(
    'refuses the malformed header %j with UNAUTHORIZED',
    async (header) => {
      const err = await refusal(createBearerAuthenticator(auth).authenticate(request(header)))
      expect(err.message).toContain('Bearer')
    },
  )

  it('refuses a token auth rejects, without saying why', async () => {
    const authenticator = createBearerAuthenticator(auth)
    const forged = `${token.slice(0, -4)}AAAA`
    for (const bad of ['junk', forged]) {
      const err = await refusal(authenticator.authenticate(request(`Bearer ${bad}`)))
      expect(err.message).toBe('invalid or expired access token')
    }
  })

  it('treats every request as root in disabled mode', async () => {
    const disabled = createAuth({ store: createMemoryIdentityStore(), mode: { kind: 'disabled' } })
    const authenticator = createBearerAuthenticator(disabled)
    expect(await authenticator.authenticate(request())).toBe(ROOT_PRINCIPAL)
    expect(await authenticator.authenticate(request('Basic nonsense'))).toBe(ROOT_PRINCIPAL)
  })

  it('lets failures other than a refused credential through unchanged', async () => {
    const broken: Auth = { ...auth, authenticate: () => Promise.reject(new Error('store down')) }
    await expect(
      createBearerAuthenticator(broken).authenticate(request(`Bearer ${token}`)),
    ).rejects.toThrow('store down')
  })
})
