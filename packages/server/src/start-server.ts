import { mkdir } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { createApp } from './app'
import type { ServerConfig } from './config/server-config'
import { ServerError } from './errors/server-error'
import { createLogger } from './logger'
import type { Logger } from './logger'
import { disabledAuthenticator } from './routing/principal'
import type { Authenticator } from './routing/principal'

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:6830`. */
  url: string
  port: number
  /**
   * Stops accepting connections, lets in-flight requests finish (up to `graceMs`, default
   * 10 s, after which remaining connections are cut), then releases everything.
   */
  close(options?: { graceMs?: number }): Promise<void>
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  logger?: Logger
}

// Until identity is wired in, modes other than `disabled` accept no credential at all.
const noIdentityAuthenticator: Authenticator = {
  authenticate(request) {
    if (request.headers.get('authorization') === null) return Promise.resolve(undefined)
    return Promise.reject(new ServerError('UNAUTHORIZED', 'invalid or expired access token'))
  },
}

/**
 * Starts the server described by `config` and resolves once it is listening.
 *
 * @example
 * const server = await startServer({ ...DEFAULT_SERVER_CONFIG, port: 0 })
 * console.log(server.url)
 * await server.close()
 */
export async function startServer(
  config: ServerConfig,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ level: config.logLevel })
  await mkdir(config.dataDir, { recursive: true })
  const app = createApp({
    authenticator:
      config.auth.kind === 'disabled' ? disabledAuthenticator : noIdentityAuthenticator,
    corsOrigins: config.corsOrigins,
    logger,
  })
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    url: `http://${host}:${port}`,
    port,
    close: (closeOptions = {}) => closeServer(server, closeOptions.graceMs ?? 10_000),
  }
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs)
    timer.unref()
    server.close((err) => {
      clearTimeout(timer)
      if (err) reject(err)
      else resolve()
    })
    // Keep-alive sockets with no request in flight would otherwise hold `close` open.
    server.closeIdleConnections()
  })
}
