import { parseServerArgs, SERVER_USAGE } from './config/parse-server-args'
import { createLogger, resolveLogFormat } from './logger'
import { resetRootKeyOffline } from './reset-root-key'
import type { ResetRootKeyConfig } from './config/parse-reset-root-key-args'
import { startServer } from './start-server'
import { SERVER_VERSION } from './version'

/** Where the runner writes; the process's streams by default. */
export interface RunServerIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** True when standard error is a terminal: `--log-format auto` is then pretty. */
  stderrIsTTY?: boolean
  /** Registers the shutdown trigger; SIGTERM and SIGINT by default. */
  onShutdownSignal: (listener: (signal: string) => void) => void
}

const processIo: RunServerIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  onShutdownSignal: (listener) => {
    process.once('SIGTERM', listener)
    process.once('SIGINT', listener)
  },
}

/**
 * Runs the server from command-line arguments until a shutdown signal, and resolves with the
 * process exit code: 0 after a clean shutdown, 2 for bad arguments, 1 when it cannot start.
 * `reset-root-key` runs offline instead: 0 once the new key is printed, 1 when it cannot be
 * (a server holds the directory, no database there). Used by the `svcdb-server` binary and by `svcdb start`.
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
    case 'reset-root-key':
      return runResetRootKey(args.config, io)
  }
  const { config } = args
  const tty = io.stderrIsTTY === true
  const logger = createLogger({
    level: config.logLevel,
    format: resolveLogFormat(config.logFormat, tty),
    colorize: tty,
    write: (line) => io.stderr(`${line}\n`),
  })
  let server
  try {
    server = await startServer(config, { logger, stdout: io.stdout })
  } catch (err) {
    // A data directory that cannot be opened is not a port problem: name the directory.
    const where = isListenError(err)
      ? `cannot start on ${config.host}:${config.port}`
      : `cannot open the data directory ${config.dataDir}`
    io.stderr(`svcdb-server: ${where}: ${startFailure(err)}\n`)
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

async function runResetRootKey(config: ResetRootKeyConfig, io: RunServerIo): Promise<number> {
  let result
  try {
    result = await resetRootKeyOffline(config)
  } catch (err) {
    io.stderr(`svcdb-server: reset-root-key: ${(err as Error).message}\n`)
    return 1
  }
  // The same line as a first start, so whatever reads that one reads this one.
  io.stdout(`root api key: ${result.rootApiKey}\n`)
  const revoked = result.revokedKeyIds.length
  io.stdout(
    config.revokeOthers
      ? `revoked ${revoked} other key${revoked === 1 ? '' : 's'} of root\n`
      : 'the other keys of root still work; --revoke-others revokes them\n',
  )
  return 0
}

// Node marks the errors of `server.listen` with their syscall; anything else came from opening
// the data directory (a lock, damage, permissions on the directory).
function isListenError(err: unknown): boolean {
  return (err as { syscall?: unknown }).syscall === 'listen'
}

// The usual reasons a listen fails, said so the operator knows what to change.
function startFailure(err: unknown): string {
  if (!isListenError(err)) return (err as Error).message
  const code = (err as { code?: unknown }).code
  if (code === 'EADDRINUSE')
    return 'the port is already in use (EADDRINUSE); stop what holds it or pick another --port'
  if (code === 'EACCES')
    return 'permission denied to listen on this port (EACCES); pick a port above 1023'
  if (code === 'EADDRNOTAVAIL')
    return 'this machine has no such address (EADDRNOTAVAIL); check --host'
  return (err as Error).message
}
