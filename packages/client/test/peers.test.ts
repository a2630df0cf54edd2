import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
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

describe('system.peers with a peer that cannot be reached', () => {
  it('reports it failing, with its URL and last error, and never its key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-client-peers-'))
    const url = `http://127.0.0.1:${await closedPort()}`
    const silent = { debug() {}, info() {}, warn() {}, error() {} }
    const b = await startServer(
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
    try {
      const client = createClient({ baseUrl: b.url, apiKey: b.rootApiKey as string })
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
    } finally {
      await b.close({ graceMs: 100 })
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
