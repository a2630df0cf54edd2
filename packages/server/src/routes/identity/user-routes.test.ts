import { routes } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectError, identityRoutes, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

const ROOT_ID = '00000000-0000-0000-0000-000000000000'
const UNKNOWN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e'

let t: TestApp

beforeEach(async () => {
  t = await startTestApp(identityRoutes)
})
afterEach(() => t.close())

const asRoot = (method: string, path: string, body?: unknown) =>
  t.call(method, path, body === undefined ? { token: t.rootToken } : { token: t.rootToken, body })

async function userOf(res: Response, status: number) {
  expect(res.status).toBe(status)
  return v.parse(routes.usersGet.response, await res.json())
}

describe('POST /system/users', () => {
  it('creates an active user with 201, integer ms timestamps and empty tags by default', async () => {
    const user = await userOf(await asRoot('POST', '/system/users', { username: 'ada' }), 201)
    expect(user).toEqual({
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      username: 'ada',
      is_active: true,
      tags: [],
      created_at: t.clock.now(),
      updated_at: t.clock.now(),
    })
    const full = await userOf(
      await asRoot('POST', '/system/users', {
        username: 'bob',
        email: 'bob@example.com',
        tags: ['ops', 'staff'],
      }),
      201,
    )
    expect(full).toMatchObject({ email: 'bob@example.com', tags: ['ops', 'staff'] })
  })

  it('answers 409 for a taken username, 400 for a missing or malformed one', async () => {
    await asRoot('POST', '/system/users', { username: 'ada' })
    await expectError(await asRoot('POST', '/system/users', { username: 'ada' }), 409, 'CONFLICT')
    await expectError(await asRoot('POST', '/system/users', { username: 'ADA' }), 409, 'CONFLICT')
    await expectError(await asRoot('POST', '/system/users', {}), 400, 'VALIDATION_FAILED')
    await expectError(
      await asRoot('POST', '/system/users', { username: 'ada', is_active: false }),
      400,
      'VALIDATION_FAILED',
    )
    const err = await expectError(
      await asRoot('POST', '/system/users', { username: 'no spaces' }),
      400,
      'BAD_REQUEST',
    )
    expect(err.message).toMatch(/^username: /)
  })
})

describe('GET /system/users', () => {
  it('lists users as {items}, root included', async () => {
    const ada = await userOf(await asRoot('POST', '/system/users', { username: 'ada' }), 201)
    const res = await asRoot('GET', '/system/users')
    expect(res.status).toBe(200)
    const { items } = v.parse(routes.usersList.response, await res.json())
    expect(items.map((u) => u.user_id).sort()).toEqual([ROOT_ID, ada.user_id].sort())
    expect(items.find((u) => u.user_id === ada.user_id)).toEqual(ada)
  })
})

describe('GET /system/users/{user_id}', () => {
  it('answers the user, 400 for an invalid UUID and 404 for an unknown one', async () => {
    const ada = await userOf(await asRoot('POST', '/system/users', { username: 'ada' }), 201)
    expect(await userOf(await asRoot('GET', `/system/users/${ada.user_id}`), 200)).toEqual(ada)
    expect(
      await userOf(await asRoot('GET', `/system/users/${ada.user_id.toUpperCase()}`), 200),
    ).toEqual(ada)
    const err = await expectError(
      await asRoot('GET', '/system/users/ada'),
      400,
      'VALIDATION_FAILED',
    )
    expect(err.details).toEqual([{ path: 'params.user_id', message: 'must be a UUID' }])
    await expectError(await asRoot('GET', `/system/users/${UNKNOWN_ID}`), 404, 'NOT_FOUND')
  })
})

describe('PATCH /system/users/{user_id}', () => {
  it('changes any of username, email, is_active and tags, and bumps updated_at', async () => {
    const ada = await userOf(
      await asRoot('POST', '/system/users', { username: 'ada', email: 'ada@example.com' }),
      201,
    )
    t.clock.advance(5000)
    const path = `/system/users/${ada.user_id}`
    const changed = await userOf(
      await asRoot('PATCH', path, { username: 'ada2', tags: ['staff'], is_active: false }),
      200,
    )
    expect(changed).toEqual({
      ...ada,
      username: 'ada2',
      tags: ['staff'],
      is_active: false,
      updated_at: ada.created_at + 5000,
    })
    const noEmail = await userOf(await asRoot('PATCH', path, { email: null }), 200)
    expect('email' in noEmail).toBe(false)
    expect(await userOf(await asRoot('GET', path), 200)).toEqual(noEmail)
  })

  it('answers 400, 404 and 409 as the spec says', async () => {
    const ada = await userOf(await asRoot('POST', '/system/users', { username: 'ada' }), 201)
    await asRoot('POST', '/system/users', { username: 'bob' })
    const path = `/system/users/${ada.user_id}`
    await expectError(await asRoot('PATCH', path, { username: 'bob' }), 409, 'CONFLICT')
    await expectError(await asRoot('PATCH', path, { is_active: 'no' }), 400, 'VALIDATION_FAILED')
    await expectError(await asRoot('PATCH', path, { user_id: UNKNOWN_ID }), 400)
    await expectError(await asRoot('PATCH', '/system/users/x', { tags: [] }), 400)
    await expectError(
      await asRoot('PATCH', `/system/users/${UNKNOWN_ID}`, { tags: [] }),
      404,
      'NOT_FOUND',
    )
  })
})

describe('DELETE /system/users/{user_id}', () => {
  it('deactivates the user: their key gets 401 at /auth/token and their token stops working', async () => {
    const ada = await t.userWithToken('ada')
    expect((await t.call('GET', '/auth/keys', { token: ada.token })).status).toBe(200)

    const res = await asRoot('DELETE', `/system/users/${ada.userId}`)
    expect(res.status).toBe(200)
    expect(v.parse(routes.usersDeactivate.response, await res.json())).toEqual({
      deactivated: true,
      user_id: ada.userId,
    })
    await expectError(
      await t.call('POST', '/auth/token', { body: { api_key: ada.apiKey } }),
      401,
      'UNAUTHORIZED',
    )
    await expectError(await t.call('GET', '/auth/keys', { token: ada.token }), 401, 'UNAUTHORIZED')
    expect((await userOf(await asRoot('GET', `/system/users/${ada.userId}`), 200)).is_active).toBe(
      false,
    )

    // Reactivation brings the same key and token back.
    await asRoot('PATCH', `/system/users/${ada.userId}`, { is_active: true })
    expect((await t.call('GET', '/auth/keys', { token: ada.token })).status).toBe(200)
    expect((await t.call('POST', '/auth/token', { body: { api_key: ada.apiKey } })).status).toBe(
      200,
    )
  })

  it('answers 400 for an invalid UUID, 404 for an unknown user, 403 for root', async () => {
    await expectError(await asRoot('DELETE', '/system/users/ada'), 400, 'VALIDATION_FAILED')
    await expectError(await asRoot('DELETE', `/system/users/${UNKNOWN_ID}`), 404, 'NOT_FOUND')
    await expectError(await asRoot('DELETE', `/system/users/${ROOT_ID}`), 403, 'FORBIDDEN')
  })
})
