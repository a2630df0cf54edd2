import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { RouteDef } from '@svcdb/contract'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { authRouteHandlers } from './auth-route-handlers'
import { groupRouteHandlers } from './group-route-handlers'
import { expectError, identityRoutes, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { userRouteHandlers } from './user-route-handlers'

const SOME_ID = '0f8fad5b-d9cb-469f-a165-70867728950e'

/** A concrete path for a route: ids filled in with a well-formed value. */
const pathOf = (route: RouteDef) =>
  route.path.replace('{key_id}', SOME_ID).replace('{user_id}', SOME_ID).replace('{name}', 'staff')

let t: TestApp
let userToken: string
let scopedToken: string

beforeAll(async () => {
  t = await startTestApp(identityRoutes)
  ;({ token: userToken } = await t.userWithToken('ada'))
  // Root's own key with rules is restricted, so it is not root (DESIGN §10).
  const scoped = await t.call('POST', '/auth/keys', {
    token: t.rootToken,
    body: { rules: [{ '/**': 'crudlify' }] },
  })
  scopedToken = await t.tokenFor(((await scoped.json()) as { key: string }).key)
})
afterAll(() => t.close())

const unused = createAuth({ store: createMemoryIdentityStore() })
const handled = [
  ...authRouteHandlers({ auth: unused }),
  ...userRouteHandlers({ auth: unused }),
  ...groupRouteHandlers({ auth: unused }),
].map((handler) => handler.route)
const rootRoutes = handled.filter((route) => route.auth === 'root')
const tokenRoutes = handled.filter((route) => route.auth === 'token')

describe('identity route handlers', () => {
  it('answer every route of the auth, user and group tables, each once', () => {
    const identity = Object.values(routes).filter(
      (route) => route.path.startsWith('/auth/') || /^\/system\/(users|groups)\b/.test(route.path),
    )
    expect(handled.map((r) => r.id).sort()).toEqual(identity.map((r) => r.id).sort())
    expect(rootRoutes).toHaveLength(13)
    expect(tokenRoutes).toHaveLength(4) // the spec's three and GET /auth/whoami
  })
})

describe('the auth guard on identity routes', () => {
  it.each(rootRoutes.map((route) => [route.id, route] as const))(
    '%s answers 401 without a token and 403 to a non-root token',
    async (_id, route) => {
      const path = pathOf(route)
      await expectError(await t.call(route.method, path), 401, 'UNAUTHORIZED')
      for (const token of [userToken, scopedToken]) {
        const err = await expectError(await t.call(route.method, path, { token }), 403, 'FORBIDDEN')
        expect(err.message).toBe('this route is reserved to the root user')
      }
    },
  )

  it.each(tokenRoutes.map((route) => [route.id, route] as const))(
    '%s answers 401 without a token or with a bad one',
    async (_id, route) => {
      const path = pathOf(route)
      await expectError(await t.call(route.method, path), 401, 'UNAUTHORIZED')
      await expectError(await t.call(route.method, path, { token: 'junk' }), 401, 'UNAUTHORIZED')
      await expectError(
        await t.call(route.method, path, { headers: { authorization: `Basic ${userToken}` } }),
        401,
        'UNAUTHORIZED',
      )
    },
  )

  it('refuses key management with a restricted credential', async () => {
    await expectError(await t.call('GET', '/auth/keys', { token: scopedToken }), 403, 'FORBIDDEN')
  })
})

describe('disabled auth mode', () => {
  it('treats every request as root, without a token', async () => {
    const open = await startTestApp(identityRoutes, { auth: { mode: { kind: 'disabled' } } })
    onTestFinished(() => open.close())
    expect(open.rootKey).toBe('')
    const created = await open.call('POST', '/system/users', { body: { username: 'ada' } })
    expect(created.status).toBe(201)
    const admin = await open.call('POST', '/auth/keys/admin')
    expect(admin.status).toBe(201)
    expect(((await admin.json()) as { user_id: string }).user_id).toBe(
      '00000000-0000-0000-0000-000000000000',
    )
  })
})
