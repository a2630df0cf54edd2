import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import type { RunningServer } from '@svcdb/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client } from '../src'
import { closedPort } from './closed-port'
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

describe('system.forgetPeer', () => {
  it('drops the pin a peer no longer configured left, then finds nothing more of it', async () => {
    const own = await startLiveServer()
    try {
      const client = createClient({ baseUrl: own.url, apiKey: own.rootApiKey })
      await client.files.write('/synced.txt', 'from peer gone')
      // A pin as a pull from peer `gone` leaves it, set while the server is stopped (it holds
      // the directory's lock); the server is then started without that peer.
      await own.stop()
      const db = await Database.open({ path: own.dataDir })
      const version = db.head()
      await db.peerPins.set('gone', version)
      await db.close()
      await own.restart()

      expect(await client.system.forgetPeer('gone')).toEqual({
        name: 'gone',
        removed: ['peer/gone'],
      })
      await expect(client.system.forgetPeer('gone')).rejects.toMatchObject({
        name: 'ClientError',
        code: 'NOT_FOUND',
        status: 404,
      })
      // The pin is gone from the database itself, not only from the server's answers.
      await own.stop()
      const reopened = await Database.open({ path: own.dataDir })
      try {
        expect(await reopened.peerPins.get('gone')).toBeUndefined()
        expect(await reopened.peerPins.list()).toEqual([])
      } finally {
        await reopened.close()
      }
    } finally {
      await own.dispose()
    }
  }, 60_000)

  it('answers NOT_FOUND for a peer of which nothing is kept', async () => {
    await expect(root.system.forgetPeer('never-configured')).rejects.toMatchObject({
      name: 'ClientError',
      code: 'NOT_FOUND',
      status: 404,
    })
  })

  it('refuses a name that cannot be a peer name with a 400', async () => {
    await expect(root.system.forgetPeer('a.b')).rejects.toMatchObject({
      name: 'ClientError',
      code: 'VALIDATION_FAILED',
      status: 400,
      details: [expect.objectContaining({ path: 'params.name' })],
    })
  })

  it('is root only: anonymous callers get UNAUTHORIZED, other users FORBIDDEN', async () => {
    const anonymous = createClient({ baseUrl: server.url })
    await expect(anonymous.system.forgetPeer('gone')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    })
    const user = await root.users.create({ username: 'peer-forgetter' })
    const key = await root.keys.createAdmin({ user_id: user.user_id })
    const other = createClient({ baseUrl: server.url, apiKey: key.api_key })
    await expect(other.system.forgetPeer('gone')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
    })
  })
})

describe('system.peers with a peer that cannot be reached', () => {
  let dataDir: string
  let url: string
  let b: RunningServer
  let client: Client

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svcdb-client-peers-'))
    url = `http://127.0.0.1:${await closedPort()}`
    const silent = { debug() {}, info() {}, warn() {}, error() {} }
    b = await startServer(
      {
        ...DEFAULT_SERVER_CONFIG,
        dataDir,
        port: 0,
        host: '127.0.0.1',
        peers: [{ name: 'a', url, key: 'svc_x' }],
        peerIntervalMs: 1_000,
      },
      { logger: silent, stdout: () => undefined },
    )
    client = createClient({ baseUrl: b.url, apiKey: b.rootApiKey as string })
  }, 30_000)
  afterAll(async () => {
    await b?.close({ graceMs: 100 })
    await rm(dataDir, { recursive: true, force: true })
  })

  it('reports it failing, with its URL and last error, and never its key', async () => {
    const deadline = Date.now() + 30_000
    let peers = await client.system.peers()
    while (peers[0]?.state !== 'failing') {
      if (Date.now() > deadline) throw new Error(`peer a never failed: ${JSON.stringify(peers)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
      peers = await client.system.peers()
    }
    expect(peers).toHaveLength(1)
    expect(peers[0]).toMatchObject({
      name: 'a',
      url,
      scope: null,
      state: 'failing',
      live: false,
      cursor: null,
      last_success_at: null,
      forks_created: 0,
    })
    expect(peers[0]?.last_error).toMatchObject({
      code: expect.any(String),
      at: expect.any(Number),
    })
    expect(JSON.stringify(peers)).not.toContain('svc_x')
  }, 60_000)

  it('refuses to forget it with CONFLICT while it is configured, and keeps listing it', async () => {
    await expect(client.system.forgetPeer('a')).rejects.toMatchObject({
      name: 'ClientError',
      code: 'CONFLICT',
      status: 409,
    })
    expect((await client.system.peers()).map((p) => p.name)).toEqual(['a'])
  })
})
