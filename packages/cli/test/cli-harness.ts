import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import type { RunningServer } from '@svcdb/server'
import { afterAll, beforeAll } from 'vitest'

// The built binary (the test command builds before testing).
export const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url))

/** What one run of the binary printed, and its exit code. */
export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `svcdb args…` with `env` (added to a clean environment) and optional stdin. */
export function svcdb(
  args: readonly string[],
  options: {
    env?: Record<string, string>
    stdin?: string | Buffer
    cwd?: string
    /** Called with everything printed on stderr so far, each time more arrives. */
    onStderr?: (stderr: string) => void
  } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...options.env },
      stdio: 'pipe',
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      options.onStderr?.(stderr)
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.stdin)
  })
}

/** A loopback URL where nothing listens: a port just bound and released. */
export async function closedUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

/** A real server in this process, plus a scratch directory for local files and config. */
export interface CliFixture {
  server: RunningServer
  url: string
  rootApiKey: string
  dataDir: string
  work: string
  /** Env that points the binary at the server with the root key, and a private config file. */
  env: Record<string, string>
  stop(): Promise<void>
  dispose(): Promise<void>
}

const silent = { debug() {}, info() {}, warn() {}, error() {} }

/** Starts a self-contained server on loopback. */
export async function startFixture(): Promise<CliFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-cli-data-'))
  const work = await mkdtemp(join(tmpdir(), 'svcdb-cli-work-'))
  const server = await startServer(
    { ...DEFAULT_SERVER_CONFIG, dataDir, port: 0, host: '127.0.0.1' },
    { logger: silent, stdout: () => undefined },
  )
  const rootApiKey = server.rootApiKey as string
  let running = true
  const fixture: CliFixture = {
    server,
    url: server.url,
    rootApiKey,
    dataDir,
    work,
    env: {
      SVCDB_URL: server.url,
      SVCDB_API_KEY: rootApiKey,
      SVCDB_CONFIG: join(work, 'config.json'),
    },
    async stop() {
      if (running) await server.close({ graceMs: 100 })
      running = false
    },
    async dispose() {
      await fixture.stop()
      await rm(dataDir, { recursive: true, force: true })
      await rm(work, { recursive: true, force: true })
    },
  }
  return fixture
}

/**
 * The test file's fixture: started before its tests, disposed of after them. `beforeAll` fills
 * the object in, so read it inside tests and hooks, not at a file's top level.
 */
export function useFixture(): CliFixture {
  const fixture = {} as CliFixture
  beforeAll(async () => {
    Object.assign(fixture, await startFixture())
  }, 30_000)
  afterAll(async () => {
    await fixture.dispose?.()
  })
  return fixture
}
