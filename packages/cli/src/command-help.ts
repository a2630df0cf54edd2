import type { Command, CommandGroup, OptionSpecs } from './command'

/** Flags every server command accepts. */
export const GLOBAL_OPTIONS = {
  url: {
    type: 'string',
    help: "The server (default: $SVCDB_URL, the profile's, or http://127.0.0.1:6830).",
  },
  'api-key': {
    type: 'string',
    value: 'KEY',
    help: "The API key to send (default: $SVCDB_API_KEY, or the profile's).",
  },
  profile: {
    type: 'string',
    value: 'NAME',
    help: 'A profile saved by `svcdb login` (default: $SVCDB_PROFILE, else the default one).',
  },
  json: {
    type: 'boolean',
    help: 'Print one JSON document with raw numbers (events tail: one line per event); a failure prints {"error":{"code","message"}}.',
  },
  help: { type: 'boolean', short: 'h', help: 'Show this help.' },
} as const satisfies OptionSpecs

const GLOBAL_HELP = `Global options:\n${optionTable(GLOBAL_OPTIONS)}`

/** True for a group of subcommands. */
export function isGroup(entry: Command | CommandGroup): entry is CommandGroup {
  return 'subcommands' in entry
}

/** Options as an aligned two-column list: the flag, then its sentence. */
function optionTable(options: OptionSpecs): string {
  const rows = Object.entries(options).map(([name, spec]) => {
    const short = spec.short === undefined ? '    ' : `-${spec.short}, `
    const value =
      spec.type === 'string' ? ` ${spec.value ?? name.toUpperCase().replace(/-/g, '_')}` : ''
    const repeat = spec.multiple === true ? ' (repeatable)' : ''
    return [`${short}--${name}${value}`, `${spec.help}${repeat}`] as const
  })
  const width = Math.max(18, ...rows.map(([flag]) => flag.length))
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}\n`).join('')
}

/** Options without their help text, as `node:util` `parseArgs` takes them. */
export function parseArgsOptions(
  options: OptionSpecs,
): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  return Object.fromEntries(
    Object.entries(options).map(([name, { type, short, multiple }]) => [
      name,
      {
        type,
        ...(short === undefined ? {} : { short }),
        ...(multiple === undefined ? {} : { multiple }),
      },
    ]),
  )
}

function optionLines(options: OptionSpecs | undefined): string {
  if (options === undefined || Object.keys(options).length === 0) return ''
  return `Options:\n${optionTable(options)}\n`
}

/** Help of one command, `prefix` being `svcdb` or `svcdb <group>`. */
export function commandHelp(prefix: string, command: Command): string {
  const usage = `Usage: ${prefix} ${command.name}${command.usage === '' ? '' : ` ${command.usage}`} [options]\n\n`
  const details = command.details === undefined ? '' : `${command.details}\n\n`
  return `${usage}${command.summary}\n\n${details}${optionLines(command.options)}${GLOBAL_HELP}`
}

/** Help of a group: its subcommands. */
export function groupHelp(group: CommandGroup): string {
  const width = Math.max(...group.subcommands.map((c) => c.name.length))
  const lines = group.subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
  const details = group.details === undefined ? '' : `\n${group.details}\n`
  return `Usage: svcdb ${group.name} <command> [options]\n\n${group.summary}\n\nCommands:\n${lines.join('\n')}\n${details}\nRun \`svcdb ${group.name} <command> --help\` for its options.\n`
}

/** Top-level help. */
export function topHelp(entries: readonly (Command | CommandGroup)[]): string {
  const names = entries.map((e) => (isGroup(e) ? `${e.name} …` : e.name))
  const width = Math.max('start'.length, ...names.map((n) => n.length))
  const lines = [
    `  ${'start'.padEnd(width)}  run the server (see \`svcdb start --help\` for its flags)`,
    ...entries.map((e, i) => `  ${(names[i] as string).padEnd(width)}  ${e.summary}`),
  ]
  return `Usage: svcdb <command> [options]

Commands:
${lines.join('\n')}

${GLOBAL_HELP}  -v, --version      print the version

Run \`svcdb <command> --help\` for a command's arguments and options.
Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 unauthorized or forbidden, 5 conflict.
`
}
