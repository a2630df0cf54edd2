import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@svcdb/client'
import type { Client } from '@svcdb/client'
import { DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import type { RunningServer } from '@svcdb/server'

/** A real svcdb server on a loopback port, in this process. */
export interface LiveSvcdb {
  url: string
  rootApiKey: string
  /** A client holding the root key, for setting up and checking the collection. */
  root: Client
  /**
   * A key limited to what the app needs: create, read and list on `/sessions/**`, nothing
   * else, so the tests also prove the app never updates or deletes.
   */
  appKey: string
  /** Stops the server and starts it again on the same port and data directory. */
  restart(): Promise<void>
  /** Stops it and removes the data directory. */
  dispose(): Promise<void>
}

const silent = { debug() {}, info() {}, warn() {}, error() {} }

/** Starts a self-contained svcdb server on 127.0.0.1 with a fresh data directory. */
export async function startLiveSvcdb(): Promise<LiveSvcdb> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sessions-app-'))
  const start = (port: number) =>
    startServer(
      { ...DEFAULT_SERVER_CONFIG, dataDir, port, host: '127.0.0.1' },
      { logger: silent, stdout: () => undefined },
    )
  let server: RunningServer | undefined = await start(0)
  const { rootApiKey, port, url } = server
  if (rootApiKey === undefined) throw new Error('the server printed no root API key')
  const root = createClient({ baseUrl: url, apiKey: rootApiKey })
  const { key: appKey } = await root.keys.create({
    label: 'sessions-app',
    rules: [{ '/sessions/**': 'cr--l---' }],
  })
  const stop = async () => {
    await server?.close({ graceMs: 100 })
    server = undefined
  }
  return {
    url,
    rootApiKey,
    root,
    appKey,
    async restart() {
      await stop()
      server = await start(port)
    },
    async dispose() {
      await stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
