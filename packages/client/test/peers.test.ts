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

describe('system.peers', () => {
  it('lists no peers on a server started without --peer', async () => {
    expect(await root.system.peers()).toEqual([])
  })

  it('is root only: anonymous callers get UNAUTHORIZED, other users FORBIDDEN', async () => {
    const anonymous = createClient({ baseUrl: server.url })
    await expect(anonymous.system.peers()).rejects.toMatchObject({
      name: 'ClientError',
      code: 'UNAUTHORIZED',
      status: 401,
    })
    const user = await root.users.create({ username: 'peer-watcher' })
    const key = await root.keys.createAdmin({ user_id: user.user_id })
    const other = createClient({ baseUrl: server.url, apiKey: key.api_key })
    await expect(other.system.peers()).rejects.toMatchObject({
      name: 'ClientError',
      code: 'FORBIDDEN',
      status: 403,
    })
  })

  it('stops when its signal aborts', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(root.system.peers({ signal: controller.signal })).rejects.toMatchObject({
      name: 'ClientError',
      code: 'ABORTED',
    })
  })
})
