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

describe('auth.whoami', () => {
  it('names root for the root key, exchanged or sent as the bearer', async () => {
    const me = await root.auth.whoami()
    expect(me).toMatchObject({ username: 'root', is_root: true, scoped: false, rules: [] })
    expect(me.key_id).toEqual(expect.any(String))
    const bearer = createClient({ baseUrl: server.url, token: server.rootApiKey })
    expect(await bearer.auth.whoami()).toEqual(me)
  })

  it('names the user of a key made for them, and the rules of a scoped key', async () => {
    const user = await root.users.create({ username: 'ada', email: 'ada@example.com' })
    const admin = await root.keys.createAdmin({ user_id: user.user_id })
    const ada = createClient({ baseUrl: server.url, apiKey: admin.api_key })
    expect(await ada.auth.whoami()).toEqual({
      user_id: user.user_id,
      username: 'ada',
      email: 'ada@example.com',
      is_root: false,
      key_id: admin.key_id,
      scoped: false,
      rules: [],
    })

    const rules = [{ '/docs/**': '-r--l---' }]
    const scopedKey = await ada.keys.create({ rules })
    const scoped = createClient({ baseUrl: server.url, apiKey: scopedKey.key })
    expect(await scoped.auth.whoami()).toMatchObject({
      user_id: user.user_id,
      key_id: scopedKey.key_id,
      scoped: true,
      rules,
    })
  })

  it('answers user_id null for a share link key', async () => {
    await root.files.write('/pub/a.txt', 'public')
    const link = await root.files.shares.createLink({ paths: ['/pub'], permissions: '-r--l---' })
    const visitor = createClient({ baseUrl: server.url, apiKey: link.key })
    expect(await visitor.auth.whoami()).toMatchObject({
      user_id: null,
      username: null,
      email: null,
      is_root: false,
      key_id: link.key_id,
      scoped: true,
    })
  })

  it('fails with UNAUTHORIZED for a revoked key', async () => {
    const key = await root.keys.create()
    const gone = createClient({ baseUrl: server.url, token: key.key })
    await root.keys.revoke(key.key_id)
    await expect(gone.auth.whoami()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })
})
