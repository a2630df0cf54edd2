import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import type { RunningServer } from '@svcdb/server'

/** A real svcdb server on a loopback port, in this process, with its root API key. */
export interface LiveServer {
  url: string
  port: number
  dataDir: string
  rootApiKey: string
  /** Stops the server (the data directory stays, for a restart). */
  stop(): Promise<void>
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>
  /** Stops it and removes the data directory. */
  dispose(): Promise<void>
  /** Resolves once the task has finished (the server's own wait: no polling). */
  waitForTask(id: string): Promise<void>
}

/** Options of {@link startLiveServer}. */
export interface LiveServerOptions {
  /** Origins allowed by CORS, for pages served elsewhere (none by default). */
  corsOrigins?: string[]
}

/** Starts a self-contained server on 127.0.0.1 with a fresh data directory. */
export async function startLiveServer(options: LiveServerOptions = {}): Promise<LiveServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-client-'))
  const silent = { debug() {}, info() {}, warn() {}, error() {} }
  const start = (port: number) =>
    startServer(
      {
        ...DEFAULT_SERVER_CONFIG,
        dataDir,
        port,
        host: '127.0.0.1',
        corsOrigins: options.corsOrigins ?? DEFAULT_SERVER_CONFIG.corsOrigins,
      },
      { logger: silent, stdout: () => undefined },
    )
  let server: RunningServer | undefined = await start(0)
  const rootApiKey = server.rootApiKey
  if (rootApiKey === undefined) throw new Error('the server printed no root API key')
  const port = server.port
  const live: LiveServer = {
    url: server.url,
    port,
    dataDir,
    rootApiKey,
    async stop() {
      await server?.close({ graceMs: 100 })
      server = undefined
    },
    async restart() {
      await live.stop()
      server = await start(port)
    },
    async dispose() {
      await live.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
    async waitForTask(id) {
      if (server === undefined) throw new Error('the server is stopped')
      await server.waitForTask(id)
    },
  }
  return live
}

/** A `fetch` that records every request it passes on to the real one. */
export function recordingFetch() {
  const calls: { method: string; path: string; bytes: number }[] = []
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input : input.url,
    )
    const body = init?.body
    const bytes =
      body instanceof Uint8Array ? body.length : typeof body === 'string' ? body.length : 0
    calls.push({ method: init?.method ?? 'GET', path: url.pathname, bytes })
    return fetch(input, init)
  }
  return { fetch: fetchImpl, calls }
}
