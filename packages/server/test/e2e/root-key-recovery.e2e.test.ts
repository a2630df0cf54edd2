import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runServerBinary } from './run-binary'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

const KEY = /^svc_[0-9a-f]{16}_[\w-]{43}$/
const KEY_LINE = /^root api key: (svc_\S+)$/m
const FILE = new TextEncoder().encode('acknowledged before the key was lost')

/** The status of `POST /auth/token` with `apiKey`. */
const exchange = async (url: string, apiKey: string) =>
  (
    await fetch(`${url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey }),
    })
  ).status

const asRoot = async (server: ServerProcess, apiKey: string) =>
  client(server.url, (await login(server.url, apiKey)).token)

const printedKey = (stdout: string) => KEY_LINE.exec(stdout)?.[1] as string

describe.each([
  { mode: 'self-contained', auth: (): string[] => [] },
  { mode: 'file://PATH', auth: (base: string) => ['--auth', `file://${join(base, 'identity')}`] },
])('root key recovery with --auth $mode', ({ auth: authFor }) => {
  let base: string
  let data: string
  let auth: string[]
  const running: ServerProcess[] = []
  const start = async () => {
    const server = await startServerProcess(auth, data)
    running.push(server)
    return server
  }
  const resetRootKey = (...extra: string[]) =>
    runServerBinary(['reset-root-key', '--data', data, ...auth, ...extra])

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'svcdb-root-key-'))
    data = join(base, 'data')
    auth = authFor(base)
  })
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop()
    await rm(base, { recursive: true, force: true })
  }, 60_000)

  it('a start on a taken port exits 1 saying so, mints no key, and the next start prints it', async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const { port } = holder.address() as AddressInfo
    let failed
    try {
      failed = await runServerBinary([
        ...['--data', data, '--port', String(port), '--log-level', 'warn', ...auth],
      ])
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
    expect(failed.code).toBe(1)
    expect(failed.stdout).toBe('')
    // One line, and no warning of work torn down out of order (`webhook queue failed`).
    expect(failed.stderr).toBe(
      `svcdb-server: cannot start on 127.0.0.1:${port}: the port is already in use (EADDRINUSE); stop what holds it or pick another --port\n`,
    )
    const server = await start()
    expect(server.rootApiKey).toMatch(KEY)
    expect(await exchange(server.url, server.rootApiKey as string)).toBe(200)
  }, 60_000)

  it('reset-root-key mints a working key, keeps the others, and --revoke-others revokes only root’s', async () => {
    let server = await start()
    const first = server.rootApiKey as string
    let root = await asRoot(server, first)
    const alice = (await (await root.post('/system/users', { username: 'alice' })).json()) as {
      user_id: string
    }
    const aliceKey = (
      (await (await root.post('/auth/keys/admin', { user_id: alice.user_id })).json()) as {
        api_key: string
      }
    ).api_key
    expect((await root.put('/files/keep.txt', FILE)).status).toBe(201)
    await server.stop()

    const reset = await resetRootKey()
    expect(reset).toMatchObject({ code: 0, stderr: '' })
    const second = printedKey(reset.stdout)
    expect(second).toMatch(KEY)
    server = await start()
    expect(server.stdout()).not.toContain('root api key')
    for (const key of [first, second]) {
      expect((await (await asRoot(server, key)).get('/system/users')).status).toBe(200)
    }
    expect(await exchange(server.url, aliceKey)).toBe(200)
    await server.stop()

    const revoking = await resetRootKey('--revoke-others')
    expect(revoking).toMatchObject({ code: 0, stderr: '' })
    expect(revoking.stdout).toContain('revoked 2 other keys of root')
    const third = printedKey(revoking.stdout)
    expect(third).toMatch(KEY)
    server = await start()
    expect(await exchange(server.url, first)).toBe(401)
    expect(await exchange(server.url, second)).toBe(401)
    root = await asRoot(server, third)
    expect((await root.get('/system/users')).status).toBe(200)
    expect(await exchange(server.url, aliceKey)).toBe(200)
    const read = await root.get('/files/keep.txt')
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(FILE)
    const users = (await (await root.get('/system/users')).json()) as {
      items: { username: string }[]
    }
    expect(users.items.map((u) => u.username).sort()).toEqual(['alice', 'root'])
  }, 60_000)

  it('reset-root-key refuses while a server holds the data directory, and changes nothing', async () => {
    const server = await start()
    const root = await asRoot(server, server.rootApiKey as string)
    const keysBefore = await (await root.get('/auth/keys/admin')).json()

    const refused = await resetRootKey('--revoke-others')
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe(
      `svcdb-server: reset-root-key: the data directory ${data} is in use by a running server; stop it first\n`,
    )
    expect(await (await root.get('/auth/keys/admin')).json()).toEqual(keysBefore)
    expect(await exchange(server.url, server.rootApiKey as string)).toBe(200)
    await server.stop()
    const restarted = await start()
    expect(restarted.stdout()).not.toContain('root api key')
    expect(await exchange(restarted.url, server.rootApiKey as string)).toBe(200)
  }, 60_000)

  it('reset-root-key refuses a directory that holds no database, and creates none', async () => {
    const refused = await resetRootKey()
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`no svcdb database at ${data}`)
    const first = await start()
    expect(first.rootApiKey).toMatch(KEY)
  }, 60_000)
})
