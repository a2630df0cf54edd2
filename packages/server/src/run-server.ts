import { parseServerArgs, SERVER_USAGE } from './config/parse-server-args'
import { createLogger } from './logger'
import { startServer } from './start-server'
import { SERVER_VERSION } from './version'

/** Where the runner writes; the process's streams by default. */
export interface RunServerIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Registers the shutdown trigger; SIGTERM and SIGINT by default. */
  onShutdownSignal: (listener: (signal: string) => void) => void
}

const processIo: RunServerIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  onShutdownSignal: (listener) => {
    process.once('SIGTERM', listener)
    process.once('SIGINT', listener)
  },
}

/**
 * Runs the server from command-line arguments until a shutdown signal, and resolves with the
 * process exit code: 0 after a clean shutdown, 2 for bad arguments, 1 when it cannot start.
 * Used by the `svcdb-server` binary and by `svcdb start`.
 */
export async function runServer(
  argv: readonly string[],
  io: RunServerIo = processIo,
): Promise<number> {
  const args = parseServerArgs(argv)
  switch (args.action) {
    case 'help':
      io.stdout(SERVER_USAGE)
      return 0
    case 'version':
      io.stdout(`${SERVER_VERSION}\n`)
      return 0
    case 'error':
      io.stderr(`svcdb-server: ${args.message}\n`)
      return 2
  }
  const { config } = args
  const logger = createLogger({ level: config.logLevel, write: (line) => io.stderr(`${line}\n`) })
  let server
  try {
    server = await startServer(config, { logger, stdout: io.stdout })
  } catch (err) {
    io.stderr(
      `svcdb-server: cannot start on ${config.host}:${config.port}: ${(err as Error).message}\n`,
    )
    return 1
  }
  if (server.rootApiKey !== undefined) io.stdout(`root api key: ${server.rootApiKey}\n`)
  io.stdout(
    `svcdb ${SERVER_VERSION} listening on ${server.url} (data: ${config.dataDir}, auth: ${config.auth.kind})\n`,
  )
  const signal = await new Promise<string>((resolve) => io.onShutdownSignal(resolve))
  logger.info(`${signal} received, shutting down`)
  await server.close()
  logger.info('stopped')
  return 0
}
