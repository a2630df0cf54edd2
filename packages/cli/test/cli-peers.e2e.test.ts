import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PeerStatus } from '@svcdb/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, closedUrl, svcdb, useFixture } from './cli-harness'

/** A server started by the built binary (`svcdb start …`), with its URL. */
interface RunningBinary {
  url: string
  /** Everything it printed on stdout up to listening. */
  out: string
  stop(): Promise<void>
}

/** A first start of the built binary, with the root key it printed. */
interface StartedServer extends RunningBinary {
  rootApiKey: string
}

/** Runs `svcdb start --port 0 --data <dir> ...args` and waits until it listens. */
async function runServerBinary(
  dataDir: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<RunningBinary> {
  const child = spawn(
    process.execPath,
    [bin, 'start', '--port', '0', '--data', dataDir, '--log-level', 'warn', ...args],
    { stdio: 'pipe', env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env } },
  )
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()))
  let out = ''
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    void closed.then(() => reject(new Error(`the server exited: ${out}${err}`)))
  })
  return {
    url,
    out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await closed
    },
  }
}

/** The first start of a data directory: the server prints its root key once. */
async function startServerBinary(
  dataDir: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<StartedServer> {
  const server = await runServerBinary(dataDir, args, env)
  const key = /root api key: (svc_\S+)/.exec(server.out)?.[1]
  if (key === undefined) {
    await server.stop()
    throw new Error(`the server printed no root API key: ${server.out}`)
  }
  return { ...server, rootApiKey: key }
}

/** Runs `probe` until it answers something `done` accepts, for at most `timeoutMs`. */
async function pollUntil<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('svcdb peers against a server with a peer that is down (built binaries)', () => {
  let dataDir: string
  let work: string
  let server: StartedServer
  let env: Record<string, string>
  let deadPeer: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svcdb-cli-peers-'))
    work = await mkdtemp(join(tmpdir(), 'svcdb-cli-peers-work-'))
    deadPeer = await closedUrl()
    server = await startServerBinary(
      dataDir,
      ['--peer', `a=${deadPeer}`, '--peer-interval', '1s'],
      { SVCDB_PEER_A_KEY: 'svc_x' },
    )
    env = {
      SVCDB_URL: server.url,
      SVCDB_API_KEY: server.rootApiKey,
      SVCDB_CONFIG: join(work, 'config.json'),
    }
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
    await rm(work, { recursive: true, force: true })
  })

  it('lists the peer as failing, as JSON items and as a table', async () => {
    const peersJson = async () => {
      const run = await svcdb(['peers', '--json'], { env, cwd: work })
      expect(run.code, run.stderr).toBe(0)
      return JSON.parse(run.stdout) as PeerStatus[]
    }
    const items = await pollUntil('peer a to fail', peersJson, (list) =>
      list.some((p) => p.name === 'a' && p.state === 'failing'),
    )
    expect(items).toHaveLength(1)
    const a = items[0] as PeerStatus
    expect(a).toMatchObject({
      name: 'a',
      url: deadPeer,
      scope: null,
      state: 'failing',
      live: false,
    })
    expect(a.last_error).not.toBeNull()
    expect(a.last_success_at).toBeNull()
    expect(a.last_attempt_at).toEqual(expect.any(Number))
    // The key is never shown, in any field.
    expect(JSON.stringify(items)).not.toContain('svc_x')

    const table = await svcdb(['peers'], { env, cwd: work })
    expect(table.code, table.stderr).toBe(0)
    const [heading, row, ...rest] = table.stdout.split('\n')
    expect(heading).toMatch(/^NAME\s+STATE\s+LIVE\s+LAG\s+LAST SYNC\s+OFFSET\s+RTT\s+LAST ERROR$/)
    expect(row).toMatch(/^a\s+failing\s+no\s+0\s+never\s+-\s+-\s+[A-Z_]+: \S/)
    expect(rest).toEqual([''])
    expect(table.stdout).not.toContain('svc_x')
  })
})

describe('svcdb peers against a server without peers (live server in this process)', () => {
  const fx = useFixture()

  it('prints a one-line hint, or an empty JSON array', async () => {
    const human = await svcdb(['peers'], { env: fx.env, cwd: fx.work })
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toBe('no peers configured: start the server with --peer NAME=URL\n')
    const json = await svcdb(['peers', '--json'], { env: fx.env, cwd: fx.work })
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual([])
  })

  it('refuses a key that is not root with exit code 4', async () => {
    const created = await svcdb(['users', 'create', 'watcher', '--json'], {
      env: fx.env,
      cwd: fx.work,
    })
    expect(created.code, created.stderr).toBe(0)
    const { user_id } = JSON.parse(created.stdout) as { user_id: string }
    const key = await svcdb(['keys', 'create', '--admin', '--user', user_id, '--json'], {
      env: fx.env,
      cwd: fx.work,
    })
    expect(key.code, key.stderr).toBe(0)
    const { api_key } = JSON.parse(key.stdout) as { api_key: string }

    const refused = await svcdb(['peers'], {
      env: { ...fx.env, SVCDB_API_KEY: api_key },
      cwd: fx.work,
    })
    expect(refused.code).toBe(4)
    expect(refused.stderr).toMatch(/^svcdb peers: FORBIDDEN: /)
    expect(refused.stdout).toBe('')
  })
})

describe('svcdb peers forget (a built binary pulling from a live server in this process)', () => {
  const source = useFixture()
  let dataDir: string
  let work: string
  let replica: RunningBinary | undefined
  let replicaKey: string
  const envOf = (server: RunningBinary) => ({
    SVCDB_URL: server.url,
    SVCDB_API_KEY: replicaKey,
    SVCDB_CONFIG: join(work, 'config.json'),
  })

  // The replica pulls from the source as peer x until synced, so that it keeps a pin of x.
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svcdb-cli-peers-forget-'))
    work = await mkdtemp(join(tmpdir(), 'svcdb-cli-peers-forget-work-'))
    const put = await svcdb(['put', '-', '/from-source.txt'], {
      env: source.env,
      cwd: source.work,
      stdin: 'pulled by the replica',
    })
    expect(put.code, put.stderr).toBe(0)
    const started = await startServerBinary(
      dataDir,
      ['--peer', `x=${source.url}`, '--peer-interval', '1s'],
      { SVCDB_PEER_X_KEY: source.rootApiKey },
    )
    replica = started
    replicaKey = started.rootApiKey
    const env = envOf(started)
    await pollUntil(
      'peer x to sync',
      async () => {
        const run = await svcdb(['peers', '--json'], { env, cwd: work })
        expect(run.code, run.stderr).toBe(0)
        return JSON.parse(run.stdout) as PeerStatus[]
      },
      (list) => list.some((p) => p.name === 'x' && p.state === 'ok'),
    )
  }, 60_000)
  afterAll(async () => {
    await replica?.stop()
    await rm(dataDir, { recursive: true, force: true })
    await rm(work, { recursive: true, force: true })
  })

  it('refuses a configured peer (exit 5) and an unknown one (exit 3), each with one line', async () => {
    const env = envOf(replica as RunningBinary)
    const configured = await svcdb(['peers', 'forget', 'x'], { env, cwd: work })
    expect(configured.code).toBe(5)
    expect(configured.stderr).toMatch(/^svcdb peers: CONFLICT: [^\n]*x[^\n]*\n$/)
    expect(configured.stdout).toBe('')

    const unknown = await svcdb(['peers', 'forget', 'nobody'], { env, cwd: work })
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toMatch(/^svcdb peers: NOT_FOUND: [^\n]*nobody[^\n]*\n$/)
    expect(unknown.stdout).toBe('')

    const unknownJson = await svcdb(['peers', 'forget', 'nobody', '--json'], { env, cwd: work })
    expect(unknownJson.code).toBe(3)
    expect(JSON.parse(unknownJson.stdout)).toMatchObject({ error: { code: 'NOT_FOUND' } })

    const malformed = await svcdb(['peers', 'forget', 'a.b'], { env, cwd: work })
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toMatch(/^svcdb peers: VALIDATION_FAILED: <name>: /)

    // Still configured, still replicating: the refused forget dropped nothing.
    const table = await svcdb(['peers'], { env, cwd: work })
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout.split('\n')[1]).toMatch(/^x\s+ok\s/)
  })

  it('forgets the peer once the server runs without it, and then finds nothing of it', async () => {
    await replica?.stop()
    const restarted = await runServerBinary(dataDir, [], {})
    replica = restarted
    const env = envOf(restarted)

    const table = await svcdb(['peers'], { env, cwd: work })
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toBe('no peers configured: start the server with --peer NAME=URL\n')

    const forgot = await svcdb(['peers', 'forget', 'x'], { env, cwd: work })
    expect(forgot.code, forgot.stderr).toBe(0)
    expect(forgot.stdout).toBe('forgot peer x: dropped peer/x\n')
    expect(forgot.stderr).toBe('')

    const again = await svcdb(['peers', 'forget', 'x', '--json'], { env, cwd: work })
    expect(again.code).toBe(3)
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'NOT_FOUND' } })

    // What was pulled stays: forgetting the peer only lets GC have versions nothing else holds.
    const got = await svcdb(['get', '/from-source.txt', '-'], { env, cwd: work })
    expect(got.code, got.stderr).toBe(0)
    expect(got.stdout).toBe('pulled by the replica')
  })
})
