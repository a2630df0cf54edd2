import packageJson from '../package.json' with { type: 'json' }
import type { CliIo } from './cli-io'
import { processIo } from './cli-io'
import { EXIT_CODES } from './exit-codes'
import type { ExitCode } from './exit-codes'

/** The `svcdb` command's version. */
export const CLI_VERSION: string = packageJson.version

/** Top-level usage of the `svcdb` command. */
export const CLI_USAGE = `Usage: svcdb <command> [options]

Commands:
  start        run the server (see \`svcdb start --help\` for its flags)

Options:
  -h, --help     show this help
  -v, --version  print the version

Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 unauthorized, 5 conflict.
`

/**
 * Runs the `svcdb` command line (without `node` and the script path) and resolves with its
 * exit code.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = processIo,
): Promise<ExitCode | number> {
  const [command, ...rest] = argv
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout(CLI_USAGE)
      return command === undefined ? EXIT_CODES.USAGE : EXIT_CODES.OK
    case '-v':
    case '--version':
      io.stdout(`${CLI_VERSION}\n`)
      return EXIT_CODES.OK
    case 'start': {
      // Loaded on demand: the server's dependencies are not needed by any other command.
      const { runServer } = await import('@svcdb/server')
      return runServer(rest)
    }
    default:
      io.stderr(`svcdb: unknown command '${command}'; run \`svcdb --help\` for the list\n`)
      return EXIT_CODES.USAGE
  }
}
