import { describe, expect, it } from 'vitest'
import type { RouteDef } from '../route'
import { authRoutes } from '../routes/auth-routes'
import { groupRoutes } from '../routes/group-routes'
import { userRoutes } from '../routes/user-routes'
import { routes } from '../routes'

// The spec's endpoint tables: method, path, auth column and success status.
const SPEC: readonly [string, string, string, string, number][] = [
  ['authToken', 'POST', '/auth/token', 'none', 200],
  ['authMagicLink', 'POST', '/auth/magic-link', 'none', 200],
  ['authMagicLinkVerify', 'GET', '/auth/magic-link/verify', 'none', 200],
  ['authRefresh', 'POST', '/auth/refresh', 'none', 200],
  ['authAdminKeysCreate', 'POST', '/auth/keys/admin', 'root', 201],
  ['authAdminKeysList', 'GET', '/auth/keys/admin', 'root', 200],
  ['authAdminKeysRevoke', 'DELETE', '/auth/keys/admin/{key_id}', 'root', 200],
  ['authKeysCreate', 'POST', '/auth/keys', 'token', 201],
  ['authKeysList', 'GET', '/auth/keys', 'token', 200],
  ['authKeysRevoke', 'DELETE', '/auth/keys/{key_id}', 'token', 200],
  ['usersCreate', 'POST', '/system/users', 'root', 201],
  ['usersList', 'GET', '/system/users', 'root', 200],
  ['usersGet', 'GET', '/system/users/{user_id}', 'root', 200],
  ['usersUpdate', 'PATCH', '/system/users/{user_id}', 'root', 200],
  ['usersDeactivate', 'DELETE', '/system/users/{user_id}', 'root', 200],
  ['groupsCreate', 'POST', '/system/groups', 'root', 201],
  ['groupsList', 'GET', '/system/groups', 'root', 200],
  ['groupsGet', 'GET', '/system/groups/{name}', 'root', 200],
  ['groupsUpdate', 'PATCH', '/system/groups/{name}', 'root', 200],
  ['groupsDelete', 'DELETE', '/system/groups/{name}', 'root', 200],
]

// Routes beyond the spec, declared the same way: method, path, auth and success status.
const BEYOND_SPEC: readonly [string, string, string, string, number][] = [
  ['authWhoami', 'GET', '/auth/whoami', 'token', 200],
]

const identityRoutes: Record<string, RouteDef> = {
  ...authRoutes,
  ...userRoutes,
  ...groupRoutes,
}

describe('identity routes', () => {
  it.each([...SPEC, ...BEYOND_SPEC])(
    'declare %s as %s %s with auth %s answering %d',
    (name, method, path, auth, status) => {
      const route = identityRoutes[name]
      expect(route).toMatchObject({ method, path, auth })
      expect(route?.successStatus ?? 200).toBe(status)
      expect(route?.response, 'every identity route has a JSON answer').toBeDefined()
    },
  )

  it('declare exactly the routes of the spec tables and the listed additions, all in the route table', () => {
    const declared = [...SPEC, ...BEYOND_SPEC].map(([name]) => name)
    expect(Object.keys(identityRoutes).sort()).toEqual(declared.sort())
    for (const name of Object.keys(identityRoutes)) expect(name in routes, name).toBe(true)
  })

  it('validate the ids in paths', () => {
    for (const route of [
      authRoutes.authAdminKeysRevoke,
      authRoutes.authKeysRevoke,
      userRoutes.usersGet,
      userRoutes.usersUpdate,
      userRoutes.usersDeactivate,
    ]) {
      expect(route.request.params, route.id).toBeDefined()
    }
  })
})
