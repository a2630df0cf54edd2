import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let root: Client

beforeAll(async () => {
  server = await startLiveServer()
  root = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

const unauthorized = { name: 'ClientError', code: 'UNAUTHORIZED', status: 401 }
const forbidden = { name: 'ClientError', code: 'FORBIDDEN', status: 403 }
const notFound = { name: 'ClientError', code: 'NOT_FOUND', status: 404 }

/** A new user and a client that holds an administrative key made for them. */
async function userWithClient(username: string) {
  const user = await root.users.create({ username })
  // The stats probed below are the whole database's: they take list on / (issue 23).
  await root.files.shares.share({ paths: ['/'], users: [user.user_id], permissions: '-r--l---' })
  const key = await root.keys.createAdmin({ user_id: user.user_id })
  return { user, key, client: createClient({ baseUrl: server.url, apiKey: key.api_key }) }
}

describe('users', () => {
  it('creates, lists, reads, updates and deactivates users', async () => {
    const ann = await root.users.create({ username: 'ann', email: 'ann@example.com', tags: ['a'] })
    expect(ann).toMatchObject({ username: 'ann', email: 'ann@example.com', is_active: true })
    expect((await root.users.list()).map((u) => u.user_id)).toContain(ann.user_id)
    expect(await root.users.get(ann.user_id)).toEqual(ann)

    const updated = await root.users.update(ann.user_id, { email: null, tags: ['a', 'b'] })
    expect(updated.tags).toEqual(['a', 'b'])
    expect(updated).not.toHaveProperty('email')

    expect(await root.users.deactivate(ann.user_id)).toEqual({
      deactivated: true,
      user_id: ann.user_id,
    })
    expect((await root.users.get(ann.user_id)).is_active).toBe(false)
  })

  it('answers CONFLICT, NOT_FOUND and VALIDATION_FAILED with the server’s codes', async () => {
    await root.users.create({ username: 'dup' })
    await expect(root.users.create({ username: 'dup' })).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
    })
    await expect(root.users.get('00000000-0000-4000-8000-000000000001')).rejects.toMatchObject(
      notFound,
    )
    await expect(root.users.get('not-a-uuid')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'params.user_id', message: 'must be a UUID' }],
    })
  })
})

describe('groups', () => {
  it('creates, lists, reads, updates and deletes groups', async () => {
    const body = {
      name: 'staff',
      default_allow: '/team/**',
      default_deny: '/team/secret/**',
      query_field: 'tags',
      query_operator: 'has',
      query_value: 'staff',
    }
    const staff = await root.groups.create(body)
    expect(staff).toMatchObject({ name: 'staff', default_allow: '/team/**' })
    expect((await root.groups.list()).map((g) => g.name)).toContain('staff')
    expect(await root.groups.get('staff')).toEqual(staff)
    expect((await root.groups.update('staff', { default_allow: '/crew/**' })).default_allow).toBe(
      '/crew/**',
    )
    await expect(root.groups.create(body)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    expect(await root.groups.delete('staff')).toEqual({ deleted: true, name: 'staff' })
    await expect(root.groups.get('staff')).rejects.toMatchObject(notFound)
  })
})

describe('keys', () => {
  it('makes an administrative key for a user that works until revoked', async () => {
    const { user, key, client } = await userWithClient('keyholder')
    expect(key).toMatchObject({ user_id: user.user_id })
    expect(key.api_key).toMatch(/^svc_/)
    expect((await client.system.stats()).counts).toBeDefined()

    const listed = (await root.keys.listAdmin()).find((k) => k.key_id === key.key_id)
    expect(listed).toMatchObject({ user_id: user.user_id, is_revoked: false })
    expect(await root.keys.revokeAdmin(key.key_id)).toEqual({ revoked: true, key_id: key.key_id })

    await expect(client.system.stats()).rejects.toMatchObject(unauthorized)
    const after = (await root.keys.listAdmin()).find((k) => k.key_id === key.key_id)
    expect(after?.is_revoked).toBe(true)
  })

  it('lets a user make, list and revoke keys of their own', async () => {
    const { user, client } = await userWithClient('selfservice')
    const own = await client.keys.create({ label: 'laptop', expires_in_days: 30 })
    expect(own).toMatchObject({ user_id: user.user_id, label: 'laptop' })
    expect(own.key).toMatch(/^svc_k_/)
    const laptop = createClient({ baseUrl: server.url, apiKey: own.key })
    expect((await laptop.keys.list()).map((k) => k.key_id)).toContain(own.key_id)

    expect(await client.keys.revoke(own.key_id)).toEqual({ revoked: true, key_id: own.key_id })
    expect((await client.keys.list()).map((k) => k.key_id)).not.toContain(own.key_id)
    await expect(laptop.system.stats()).rejects.toMatchObject(unauthorized)
    await expect(client.keys.create({ expires_in_days: 0 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'body.expires_in_days' }],
    })
  })

  it('refuses the keys of a deactivated user', async () => {
    const { user, client } = await userWithClient('leaver')
    await client.system.stats()
    await root.users.deactivate(user.user_id)
    await expect(client.system.stats()).rejects.toMatchObject(unauthorized)
    await expect(
      createClient({ baseUrl: server.url, apiKey: 'svc_0000000000000000_nope' }).system.stats(),
    ).rejects.toMatchObject(unauthorized)
  })
})

describe('root routes', () => {
  it('answer FORBIDDEN to any other user', async () => {
    const { client } = await userWithClient('plain')
    const calls: [string, () => Promise<unknown>][] = [
      ['users.list', () => client.users.list()],
      ['groups.list', () => client.groups.list()],
      ['keys.listAdmin', () => client.keys.listAdmin()],
      ['tasks.list', () => client.tasks.list()],
      ['cron.list', () => client.cron.list()],
      ['system.gc', () => client.system.gc({ dryRun: true })],
      ['email.getConfig', () => client.email.getConfig()],
      ['shares.list', () => client.files.shares.list()],
      ['versions.promote', () => client.versions.promote('a'.repeat(64))],
      ['versions.export', () => client.versions.export()],
    ]
    for (const [name, call] of calls) await expect(call(), name).rejects.toMatchObject(forbidden)
    await expect(client.files.write('/anything.txt', 'x')).rejects.toMatchObject(forbidden)
  })
})
