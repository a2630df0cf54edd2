import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerBinary } from '../e2e/run-binary'
import { client, login, startServerProcess } from '../kit'
import type { ServerProcess } from '../kit'
import { createClusterStorage } from './cluster-storage'
import type { ClusterStorage } from './cluster-storage'

/**
 * A server on PostgreSQL and S3 (`--meta`, `--chunks`), each run in a database and an S3
 * prefix of its own: the whole database lives there, nothing in `--data`.
 */
describe('a server on PostgreSQL and S3', () => {
  let storage: ClusterStorage
  let args: string[]
  const servers: ServerProcess[] = []
  const start = async () => {
    const server = await startServerProcess(args)
    servers.push(server)
    return server
  }

  beforeAll(async () => {
    storage = await createClusterStorage()
    args = ['--meta', storage.meta, '--chunks', storage.chunks]
  })
  afterAll(async () => {
    for (const server of servers) await server.dispose()
    await storage.dispose()
  })

  const big = randomBytes(3 * 1024 * 1024 + 17)
  let rootApiKey: string

  it('stores files in PostgreSQL and S3, nothing in --data', async () => {
    const a = await start()
    expect(a.rootApiKey).toMatch(/^svc_/)
    rootApiKey = a.rootApiKey as string
    const api = client(a.url, (await login(a.url, rootApiKey)).token)
    expect((await api.put('/files/big.bin', big)).status).toBe(201)
    expect((await api.put('/files/notes/a.txt', new TextEncoder().encode('hello'))).status).toBe(
      201,
    )
    const read = await api.get('/files/big.bin')
    expect(read.status).toBe(200)
    expect(Buffer.from(await read.arrayBuffer()).equals(big)).toBe(true)
    expect(await readdir(a.dataDir)).not.toContain('meta')
  })

  it('a new process on new local disk serves what the first stored, with its keys', async () => {
    await servers[0]?.stop()
    const b = await start()
    expect(b.rootApiKey).toBeUndefined()
    const api = client(b.url, (await login(b.url, rootApiKey)).token)
    const read = await api.get('/files/big.bin')
    expect(Buffer.from(await read.arrayBuffer()).equals(big)).toBe(true)
    expect(await (await api.get('/files/notes/a.txt')).text()).toBe('hello')
  })

  it('keeps every acknowledged write across a kill -9', async () => {
    const b = servers[1] as ServerProcess
    const api = client(b.url, (await login(b.url, rootApiKey)).token)
    const bodies = Array.from({ length: 8 }, (_, i) => randomBytes(1000 + i * 70_000))
    const answers = await Promise.all(bodies.map((body, i) => api.put(`/files/k/${i}.bin`, body)))
    expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 201))
    expect(await b.kill('SIGKILL')).toBe('SIGKILL')
    const c = await start()
    const after = client(c.url, (await login(c.url, rootApiKey)).token)
    for (const [i, body] of bodies.entries()) {
      const read = await after.get(`/files/k/${i}.bin`)
      expect(read.status).toBe(200)
      expect(Buffer.from(await read.arrayBuffer()).equals(body)).toBe(true)
    }
  })

  it('reset-root-key refuses while a server runs, then mints a key the next server accepts', async () => {
    const refused = await runServerBinary(['reset-root-key', ...args])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('is in use by a running server; stop it first')
    await servers.at(-1)?.stop()
    const reset = await runServerBinary(['reset-root-key', '--revoke-others', ...args])
    expect(reset.code).toBe(0)
    const minted = /^root api key: (svc_\S+)$/m.exec(reset.stdout)?.[1] as string
    expect(minted).toMatch(/^svc_/)
    const d = await start()
    const status = async (key: string) =>
      (
        await fetch(`${d.url}/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ api_key: key }),
        })
      ).status
    expect(await status(minted)).toBe(200)
    expect(await status(rootApiKey)).toBe(401)
    const api = client(d.url, (await login(d.url, minted)).token)
    expect(await (await api.get('/files/notes/a.txt')).text()).toBe('hello')
  })
})
