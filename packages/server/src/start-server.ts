import { mkdir } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { createApp } from './app'
import { defaultConsoleDir } from './console/console-dir'
import { loadConsoleFiles } from './console/console-files'
import type { ConsoleFiles } from './console/console-files'
import { createConsoleSignIn } from './console/console-sign-in'
import type { ServerConfig } from './config/server-config'
import { createLogger, resolveLogFormat } from './logger'
import type { Logger } from './logger'
import { disabledAuthenticator } from './routing/principal'
import { withDirectBodies } from './routing/direct-body'
import type { Task } from '@svcdb/scheduler'
import { openServices } from './services/open-services'

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
  /**
   * The root API key minted on this first start of an authenticated mode, once listening (a
   * start that fails mints none): print it once.
   */
  rootApiKey?: string
  /**
   * Resolves with the task's final state once it has finished (`completed`, `failed` or
   * `cancelled`; at once if it already has): for embedders and tests that start work through
   * the API and want its end without polling. Rejects when no such task exists, or with the
   * signal's reason.
   */
  waitForTask(id: string, options?: { signal?: AbortSignal }): Promise<Task>
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  logger?: Logger
  /** Where magic links are printed in `--dev`; the process's stdout by default. */
  stdout?: (text: string) => void
}

/**
 * Starts the server described by `config` and resolves once it is listening: opens the
 * database and every service on it, mounts every route, then listens.
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
  const logger =
    options.logger ??
    createLogger({
      level: config.logLevel,
      format: resolveLogFormat(config.logFormat, process.stderr.isTTY === true),
    })
  await mkdir(config.dataDir, { recursive: true })
  let url = ''
  const services = await openServices(config, logger, {
    baseUrl: () => url,
    stdout: options.stdout ?? ((text) => process.stdout.write(text)),
  })
  let consoleFiles: ConsoleFiles | 'missing' | undefined
  if (config.console) {
    const dir = await defaultConsoleDir()
    consoleFiles = (await loadConsoleFiles(dir)) ?? 'missing'
    if (consoleFiles === 'missing')
      logger.warn(`the web console is not built (no ${dir}index.html): /console/ answers 404`)
  }
  const app = createApp({
    authenticator: config.auth.kind === 'disabled' ? disabledAuthenticator : services.authenticator,
    corsOrigins: config.corsOrigins,
    logger,
    handlers: services.handlers,
    health: services.health,
    observe: (c, next) =>
      services.metrics.observe(c, async () => {
        // Another node may have committed since: every request sees at least what any node
        // had acknowledged when it arrived (one read of the commit token; nothing embedded).
        await services.db.refresh()
        await next()
      }),
    onError: (err) => services.observeError(err),
    ...(consoleFiles === undefined
      ? {}
      : {
          console: consoleFiles,
          consoleSignIn: createConsoleSignIn({ dev: config.dev, db: services.db }),
        }),
  })
  const server = createAdaptorServer({ fetch: withDirectBodies(app.fetch) }) as Server
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (err) {
    await services.close()
    throw err
  }
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  url = `http://${host}:${port}`
  logger.debug('listening', {
    url,
    dataDir: config.dataDir,
    auth: config.auth.kind,
    dev: config.dev,
    nodeId: config.nodeId,
    corsOrigins: config.corsOrigins.join(',') || 'none',
    webhookAllow: config.webhookAllow.join(',') || 'none',
    metricsIntervalMs: config.metricsIntervalMs,
    headLogRetentionMs: config.headLogRetentionMs,
  })
  const close = async (graceMs: number) => {
    services.beginShutdown()
    try {
      await closeServer(server, graceMs)
    } finally {
      await services.close()
    }
  }
  let rootApiKey: string | undefined
  try {
    ;({ rootApiKey } = await services.auth.ensureRootKey())
  } catch (err) {
    await close(0)
    throw err
  }
  const running: RunningServer = {
    url,
    port,
    close: (closeOptions = {}) => close(closeOptions.graceMs ?? 10_000),
    waitForTask: (id, waitOptions) => services.scheduler.tasks.waitFor(id, waitOptions),
  }
  if (rootApiKey !== undefined) running.rootApiKey = rootApiKey
  return running
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
