import { routes } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectError, identityRoutes, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let t: TestApp

beforeEach(async () => {
  t = await startTestApp(identityRoutes)
})
afterEach(() => t.close())

const asRoot = (method: string, path: string, body?: unknown) =>
  t.call(method, path, body === undefined ? { token: t.rootToken } : { token: t.rootToken, body })

const staff = {
  name: 'staff',
  default_allow: '/staff/**',
  default_deny: '/staff/secret/**',
  query_field: 'tags',
  query_operator: 'has',
  query_value: 'staff',
}

async function groupOf(res: Response, status: number) {
  expect(res.status).toBe(status)
  return v.parse(routes.groupsGet.response, await res.json())
}

describe('POST /system/groups', () => {
  it('creates a group with 201 and integer ms timestamps', async () => {
    const group = await groupOf(await asRoot('POST', '/system/groups', staff), 201)
    expect(group).toEqual({ ...staff, created_at: t.clock.now(), updated_at: t.clock.now() })
  })

  it('answers 409 for a taken name', async () => {
    await asRoot('POST', '/system/groups', staff)
    await expectError(await asRoot('POST', '/system/groups', staff), 409, 'CONFLICT')
  })

  it.each(['password', 'email', 'secret_digest', '__proto__'])(
    'answers 400 for the unsafe query_field %s',
    async (field) => {
      const res = await asRoot('POST', '/system/groups', { ...staff, query_field: field })
      const err = await expectError(res, 400, 'BAD_REQUEST')
      expect(err.message).toMatch(/^query_field: /)
    },
  )

  it('answers 400 for a missing field or an operator the field does not take', async () => {
    const { query_value: _, ...missing } = staff
    await expectError(await asRoot('POST', '/system/groups', missing), 400, 'VALIDATION_FAILED')
    await expectError(
      await asRoot('POST', '/system/groups', {
        ...staff,
        query_field: 'is_active',
        query_operator: 'has',
      }),
      400,
      'BAD_REQUEST',
    )
  })
})

describe('GET /system/groups and /system/groups/{name}', () => {
  it('list groups as {items} and answer one group or 404', async () => {
    const group = await groupOf(await asRoot('POST', '/system/groups', staff), 201)
    const list = await asRoot('GET', '/system/groups')
    expect(list.status).toBe(200)
    expect(v.parse(routes.groupsList.response, await list.json())).toEqual({ items: [group] })
    expect(await groupOf(await asRoot('GET', '/system/groups/staff'), 200)).toEqual(group)
    await expectError(await asRoot('GET', '/system/groups/ops'), 404, 'NOT_FOUND')
  })
})

describe('PATCH /system/groups/{name}', () => {
  it('changes any of the fields and bumps updated_at', async () => {
    const group = await groupOf(await asRoot('POST', '/system/groups', staff), 201)
    t.clock.advance(1000)
    const patch = { query_field: 'username', query_operator: 'starts_with', query_value: 'a' }
    const changed = await groupOf(await asRoot('PATCH', '/system/groups/staff', patch), 200)
    expect(changed).toEqual({ ...group, ...patch, updated_at: group.created_at + 1000 })
    expect(await groupOf(await asRoot('GET', '/system/groups/staff'), 200)).toEqual(changed)
  })

  it('answers 400 for an unsafe query_field or a rename, 404 for an unknown group', async () => {
    await asRoot('POST', '/system/groups', staff)
    await expectError(
      await asRoot('PATCH', '/system/groups/staff', { query_field: 'password' }),
      400,
      'BAD_REQUEST',
    )
    await expectError(
      await asRoot('PATCH', '/system/groups/staff', { name: 'ops' }),
      400,
      'BAD_REQUEST',
    )
    await expectError(
      await asRoot('PATCH', '/system/groups/ops', { query_value: 'x' }),
      404,
      'NOT_FOUND',
    )
    // The refused change left the group as it was.
    expect((await groupOf(await asRoot('GET', '/system/groups/staff'), 200)).query_field).toBe(
      'tags',
    )
  })
})

describe('DELETE /system/groups/{name}', () => {
  it('deletes the group, then answers 404', async () => {
    await asRoot('POST', '/system/groups', staff)
    const res = await asRoot('DELETE', '/system/groups/staff')
    expect(res.status).toBe(200)
    expect(v.parse(routes.groupsDelete.response, await res.json())).toEqual({
      deleted: true,
      name: 'staff',
    })
    await expectError(await asRoot('GET', '/system/groups/staff'), 404, 'NOT_FOUND')
    await expectError(await asRoot('DELETE', '/system/groups/staff'), 404, 'NOT_FOUND')
  })
})
