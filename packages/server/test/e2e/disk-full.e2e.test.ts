import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

// A real full file system: a 16 MiB tmpfs mounted in a mount namespace of its own (user +
// mount namespace through `unshare -rm`, so root is not needed). A holder process keeps the
// namespace, and so the tmpfs, alive across server restarts; the server joins it with
// `nsenter`, and the test reaches the mount through the holder's /proc/<pid>/root.
const TMPFS_BYTES = 16 * 1024 * 1024
const BALLAST_BYTES = 4 * 1024 * 1024
const LARGE_FILE = 512 * 1024
// Under the 16 KiB inline limit: such files are stored in LevelDB, not in pack files.
const SMALL_FILE = 2 * 1024

let holder: ChildProcess
let dataDir: string
let mount: string
let server: ServerProcess
let rootApiKey: string
let api: ReturnType<typeof client>
/** Every file the server acknowledged with 201, and its bytes. */
const acknowledged = new Map<string, Uint8Array>()

function startHolder(dir: string): Promise<ChildProcess> {
  const child = spawn(
    'unshare',
    [
      '-rm',
      'sh',
      '-c',
      `mount -t tmpfs -o size=${TMPFS_BYTES} tmpfs "$1" && echo mounted && exec sleep 100000`,
      'sh',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let err = ''
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child))
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`unshare exited with ${code}: ${err}`)))
  })
}

const inNamespace = (command: string[]) => [
  'nsenter',
  '-t',
  String(holder.pid),
  '-U',
  '-m',
  '--preserve-credentials',
  ...command,
]

async function startServer(): Promise<void> {
  server = await startServerProcess([], dataDir, { wrap: inNamespace })
  rootApiKey ??= server.rootApiKey as string
  api = client(server.url, (await login(server.url, rootApiKey)).token)
}

async function put(path: string, bytes: Uint8Array): Promise<Response> {
  const res = await api.put(`/files${path}`, bytes)
  if (res.status === 201) acknowledged.set(path, bytes)
  return res
}

const health = async () =>
  ((await (await fetch(`${server.url}/system/health`)).json()) as { status: string }).status

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svcdb-e2e-full-'))
  holder = await startHolder(dataDir)
  mount = `/proc/${holder.pid}/root${dataDir}`
  // Placed before the server starts: removing it later is how space comes back, since
  // deletes through the API need writes themselves.
  await writeFile(join(mount, 'ballast'), randomBytes(BALLAST_BYTES))
  await startServer()
}, 60_000)

afterAll(async () => {
  await server?.stop()
  holder?.kill()
  await rm(dataDir, { recursive: true, force: true })
})

describe('a full disk', () => {
  let failed: Response | undefined

  it('answers 507 INSUFFICIENT_STORAGE with a JSON body naming the space', async () => {
    for (let i = 0; i < (2 * TMPFS_BYTES) / LARGE_FILE && failed === undefined; i++) {
      const res = await put(`/fill/${i}.bin`, randomBytes(LARGE_FILE))
      if (res.status !== 201) failed = res
    }
    expect(acknowledged.size).toBeGreaterThan(0)
    expect(failed?.status).toBe(507)
    expect(failed?.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await failed?.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('INSUFFICIENT_STORAGE')
    expect(body.error.message).toMatch(/no space left on the device holding the database/)
    expect(body.error.message).not.toContain(dataDir)
  }, 60_000)

  it('answers 507 for writes that land in the metadata store too', async () => {
    // The last pages of the device fill up within a few small writes.
    let res: Response | undefined
    for (let i = 0; i < 500 && res?.status !== 507; i++) {
      res = await put(`/small/${i}.txt`, randomBytes(SMALL_FILE))
      if (res.status !== 507) expect(res.status).toBe(201)
    }
    expect(res?.status).toBe(507)
    expect(await res?.json()).toMatchObject({ error: { code: 'INSUFFICIENT_STORAGE' } })
  }, 60_000)

  it('reports health degraded while writes fail', async () => {
    expect(await health()).toBe('degraded')
  })

  it('keeps serving reads', async () => {
    const [path, bytes] = [...acknowledged][0] as [string, Uint8Array]
    const res = await api.get(`/files${path}`)
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
    expect((await api.get('/files/fill/')).status).toBe(200)
  })

  it('exchanges an API key for a token, or answers the same 507', async () => {
    const res = await fetch(`${server.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: rootApiKey }),
    })
    if (res.status === 200) expect(await res.json()).toHaveProperty('token')
    else {
      expect(res.status).toBe(507)
      expect(await res.json()).toMatchObject({ error: { code: 'INSUFFICIENT_STORAGE' } })
    }
  })

  it('writes again once space is freed, and health returns to ok', async () => {
    await rm(join(mount, 'ballast'))
    expect((await put('/after/large.bin', randomBytes(LARGE_FILE))).status).toBe(201)
    expect(await health()).toBe('ok')
    // Small writes go to LevelDB, whose log a failed append may have left torn.
    for (let i = 0; i < 20; i++)
      expect((await put(`/after/small-${i}.txt`, randomBytes(SMALL_FILE))).status).toBe(201)
  }, 60_000)

  it('keeps every acknowledged file across a restart', async () => {
    expect(await server.stop()).toBe(0)
    await startServer()
    for (const [path, bytes] of acknowledged) {
      const res = await api.get(`/files${path}`)
      expect(res.status, path).toBe(200)
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes), path).toBe(true)
    }
  }, 60_000)
})
