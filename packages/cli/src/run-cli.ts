import { parseArgs } from 'node:util'
import packageJson from '../package.json' with { type: 'json' }
import { describeFailure, usageError } from './cli-error'
import type { CliIo } from './cli-io'
import { processIo } from './cli-io'
import type { Command, CommandContext, CommandGroup, OptionSpecs } from './command'
import {
  commandHelp,
  GLOBAL_OPTIONS,
  groupHelp,
  isGroup,
  parseArgsOptions,
  topHelp,
} from './command-help'
import { COMMANDS } from './commands'
import { connect, resolveConnection } from './connection/connect'
import type { Connection } from './connection/connect'
import { EXIT_CODES } from './exit-codes'
import { explainFailure } from './explain-failure'
import { stringOption } from './option-value'
import type { ExitCode } from './exit-codes'

/** The `svcdb` command's version. */
export const CLI_VERSION: string = packageJson.version

/** Top-level usage of the `svcdb` command. */
export const CLI_USAGE = topHelp(COMMANDS)

/** Options of {@link runCli}. */
export interface RunCliOptions {
  env?: Record<string, string | undefined>
}

/**
 * Runs the `svcdb` command line (without `node` and the script path) and resolves with its
 * exit code (see `EXIT_CODES`). Errors are printed as one line on stderr, never thrown.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = processIo,
  options: RunCliOptions = {},
): Promise<ExitCode | number> {
  const env = options.env ?? process.env
  const [command, ...rest] = argv
  switch (command) {
    case 'help':
      // `svcdb help keys [create]` is `svcdb keys [create] --help`.
      if (rest.length > 0) return runCli([...rest, '--help'], io, options)
      io.stdout(CLI_USAGE)
      return EXIT_CODES.OK
    case undefined:
    case '-h':
    case '--help':
      io.stdout(CLI_USAGE)
      return command === undefined ? EXIT_CODES.USAGE : EXIT_CODES.OK
    case '-v':
    case '--version':
      io.stdout(`${CLI_VERSION}\n`)
      return EXIT_CODES.OK
    case 'start': {
      // Loaded on demand: the server's dependencies are not needed by any other command.
      const { limitHeapGrowth, runServer } = await import('@svcdb/server')
      // This process becomes the server: its heap is bounded as svcdb-server's is.
      limitHeapGrowth()
      return runServer(rest)
    }
  }
  const entry = COMMANDS.find((c) => c.name === command)
  if (entry === undefined) {
    const message = `unknown command '${command}'; run \`svcdb --help\` for the list`
    io.stderr(`svcdb: ${message}\n`)
    if (rest.includes('--json'))
      io.stdout(`${JSON.stringify({ error: { code: 'USAGE', message } })}\n`)
    return EXIT_CODES.USAGE
  }
  try {
    if (isGroup(entry)) return await runGroup(entry, rest, io, env)
    return await runCommand('svcdb', entry, rest, io, env)
  } catch (err) {
    const { exitCode, code, message } = describeFailure(err)
    io.stderr(`svcdb ${command}: ${message}\n`)
    // Scripts reading --json output get the failure in the same form as the server's errors.
    if (rest.includes('--json')) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`)
    return exitCode
  }
}

async function runGroup(
  group: CommandGroup,
  argv: readonly string[],
  io: CliIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(groupHelp(group))
    return name === undefined ? EXIT_CODES.USAGE : EXIT_CODES.OK
  }
  const command = group.subcommands.find((c) => c.name === name)
  if (command === undefined)
    throw usageError(`unknown command '${name}'; run \`svcdb ${group.name} --help\` for the list`)
  return runCommand(`svcdb ${group.name}`, command, rest, io, env)
}

/**
 * `--permissions -r--l---` as `--permissions=-r--l---`: a value of a string option is the next
 * argument whatever it starts with (as getopt does), where `parseArgs` would call a value
 * that starts with `-` ambiguous. Permission flags often do.
 */
function joinOptionValues(argv: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    const next = argv[i + 1]
    if (arg.startsWith('--') && !arg.includes('=') && next !== undefined && next.startsWith('-')) {
      if (options[arg.slice(2)]?.type === 'string') {
        out.push(`${arg}=${next}`)
        i++
        continue
      }
    }
    out.push(arg)
  }
  return out
}

async function runCommand(
  prefix: string,
  command: Command,
  argv: readonly string[],
  io: CliIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: joinOptionValues(argv, { ...GLOBAL_OPTIONS, ...command.options }),
      options: parseArgsOptions({ ...GLOBAL_OPTIONS, ...command.options }),
      allowPositionals: true,
      strict: true,
    })
  } catch (err) {
    throw usageError(`${(err as Error).message}; run \`${prefix} ${command.name} --help\``)
  }
  const { values, positionals } = parsed
  if (values.help === true) {
    io.stdout(commandHelp(prefix, command))
    return EXIT_CODES.OK
  }
  const [min, max] = command.args
  if (positionals.length < min || positionals.length > max)
    throw usageError(
      `expected ${min === max ? min : `${min} to ${max}`} argument(s): ${command.name} ${command.usage}`,
    )
  const json = values.json === true
  let connection: Promise<Connection> | undefined
  const ctx: CommandContext = {
    io,
    env,
    json,
    connection: () =>
      (connection ??= resolveConnection(
        {
          url: stringOption(values.url),
          'api-key': stringOption(values['api-key']),
          profile: stringOption(values.profile),
        },
        env,
      )),
    client: async () => connect(await ctx.connection()),
    print(value, human) {
      io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : human())
    },
  }
  try {
    const code = await command.run(positionals, values, ctx)
    return code ?? EXIT_CODES.OK
  } catch (err) {
    const url =
      connection === undefined ? undefined : (await connection.catch(() => undefined))?.url
    throw explainFailure(err, { url, options: command.options, wireOptions: command.wireOptions })
  }
}
