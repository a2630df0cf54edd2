import { mkdtemp, rm } from 'node:fs/promises'
import type { Server } from 'node:http'
import { Agent, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { createApp } from '../src/app'
import { DEFAULT_SERVER_CONFIG } from '../src/config/server-config'
import type { ServerConfig } from '../src/config/server-config'
import { createLogger } from '../src/logger'
import { disabledAuthenticator } from '../src/routing/principal'
import { openServices } from '../src/services/open-services'
import type { Services } from '../src/services/open-services'

export const DURATION_MS = 3_000

export const CONCURRENCY = 32
export const quiet = createLogger({ level: 'silent' })

export interface Running {
  url: URL
  services: Services
  close(): Promise<void>
}

/** The server of `startServer`, in process, with its services at hand for load generation. */
export async function run(config: Partial<ServerConfig>): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-bench-'))
  const full = { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir, ...config }
  let base = ''
  const services = await openServices(full, quiet, { baseUrl: () => base, stdout: () => undefined })
  const app = createApp({
    authenticator: full.auth.kind === 'disabled' ? disabledAuthenticator : services.authenticator,
    handlers: services.handlers,
    logger: quiet,
    observe: (c, next) => services.metrics.observe(c, next),
  })
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: new URL(base),
    services,
    async close() {
      services.beginShutdown()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await services.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Sends requests on keep-alive connections for a fixed time; returns completed requests. */
export async function hammer(
  url: URL,
  make: () => {
    method: string
    path: string
    headers?: Record<string, string>
    body?: string | Buffer
  },
  durationMs = DURATION_MS,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const deadline = Date.now() + durationMs
  let done = 0
  const worker = async () => {
    while (Date.now() < deadline) {
      const r = make()
      await new Promise<void>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: r.path,
            method: r.method,
            headers: r.headers,
            agent,
          },
          (res) => {
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`${r.path}: ${res.statusCode}`))
            res.resume()
            res.on('end', resolve)
          },
        )
        req.on('error', reject)
        req.end(r.body)
      })
      done++
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  agent.destroy()
  return done / (durationMs / 1000)
}

export async function token(url: URL, apiKey: string): Promise<string> {
  const res = await fetch(new URL('/auth/token', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  })
  return ((await res.json()) as { token: string }).token
}
