import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The built binary (the test command builds before testing).
const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/** A `svcdb-server` process on an ephemeral port, with what it printed. */
export interface ServerProcess {
  url: string
  pid: number
  dataDir: string
  /** The root API key printed on first start (authenticated modes). */
  rootApiKey: string | undefined
  /** Everything written to stdout so far. */
  stdout(): string
  /** Waits until stdout matches `pattern` (after `from` characters), returning the match. */
  waitFor(pattern: RegExp, from?: number): Promise<RegExpExecArray>
  /** Everything written to stderr so far. */
  stderr(): string
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>
  /**
   * Sends `signal` (SIGKILL: a crash, nothing flushed or closed) and waits until the process
   * is gone, resolving with the signal that ended it (null when it exited by itself).
   */
  kill(signal: NodeJS.Signals): Promise<NodeJS.Signals | null>
  /** Stops and removes the data directory. */
  dispose(): Promise<void>
}

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /**
   * Rewrites the command line (`[node, bin, ...args]`) before it is spawned, e.g. to run the
   * server inside another mount namespace. The wrapper must `exec` the command, so that the
   * spawned process is the server (signals reach it, its pid is the server's).
   */
  wrap?: (command: string[]) => string[]
  /** Variables added to the server's environment (e.g. `SVCDB_AUTH`). */
  env?: Record<string, string>
}

/** Starts the built server with `args` (plus `--port 0 --data <tmp>` unless given). */
export async function startServerProcess(
  args: string[] = [],
  dataDir?: string,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'svcdb-e2e-')))
  const command = [
    process.execPath,
    bin,
    '--port',
    '0',
    '--data',
    dir,
    '--log-level',
    'warn',
    ...args,
  ]
  const [file, ...rest] = options.wrap?.(command) ?? command
  const child: ChildProcessWithoutNullStreams = spawn(file as string, rest, {
    stdio: 'pipe',
    env: { ...process.env, ...options.env },
  })
  let out = ''
  let err = ''
  const waiters = new Set<() => void>()
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
    for (const wake of waiters) wake()
  })
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  )
  const exited = closed.then(({ code }) => code)
  const waitFor = (pattern: RegExp, from = 0) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out.slice(from))
        if (match !== null) {
          waiters.delete(check)
          resolve(match)
        }
      }
      waiters.add(check)
      check()
      void exited.then(() => reject(new Error(`server exited; stdout: ${out}\nstderr: ${err}`)))
    })
  const listening = await waitFor(/listening on (http:\/\/\S+)/)
  const key = /root api key: (svc_\S+)/.exec(out)
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    return exited
  }
  return {
    url: listening[1] as string,
    pid: child.pid as number,
    dataDir: dir,
    rootApiKey: key?.[1],
    stdout: () => out,
    stderr: () => err,
    waitFor,
    stop,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return (await closed).signal
    },
    async dispose() {
      await stop()
      if (dataDir === undefined) await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A tiny fetch client bound to a server and, optionally, an access token. */
export function client(url: string, token?: string) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const init: RequestInit = { method, headers: { ...headers } }
    if (token !== undefined)
      (init.headers as Record<string, string>).authorization = `Bearer ${token}`
    if (body instanceof Uint8Array) init.body = body as Uint8Array<ArrayBuffer>
    else if (body !== undefined) {
      ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    return fetch(url + path, init)
  }
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown) => call('POST', path, body),
    put: (path: string, body?: unknown) => call('PUT', path, body),
    patch: (path: string, body?: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  }
}

/** Exchanges an API key for tokens. */
export async function login(
  url: string,
  apiKey: string,
): Promise<{ token: string; refresh_token: string }> {
  const res = await fetch(`${url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as { token: string; refresh_token: string }
}
