import type { Command, CommandGroup, OptionSpecs } from './command'

/** Flags every server command accepts. */
export const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  profile: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpecs

const GLOBAL_HELP = `Global options:
  --url URL          server (default: $SVCDB_URL, the profile's, or http://127.0.0.1:6830)
  --api-key KEY      API key (default: $SVCDB_API_KEY, or the profile's)
  --profile NAME     a profile saved by \`svcdb login\` (default: $SVCDB_PROFILE or the default one)
  --json             machine output: one JSON document (event tail: one per line)
  -h, --help         show help
`

/** True for a group of subcommands. */
export function isGroup(entry: Command | CommandGroup): entry is CommandGroup {
  return 'subcommands' in entry
}

function optionLines(options: OptionSpecs | undefined): string {
  const entries = Object.entries(options ?? {})
  if (entries.length === 0) return ''
  const lines = entries.map(([name, spec]) => {
    const short = spec.short === undefined ? '    ' : `-${spec.short}, `
    const value = spec.type === 'string' ? ` ${name.toUpperCase().replace(/-/g, '_')}` : ''
    return `  ${short}--${name}${value}${spec.multiple === true ? ' (repeatable)' : ''}`
  })
  return `Options:\n${lines.join('\n')}\n\n`
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
  return `Usage: svcdb ${group.name} <command> [options]\n\n${group.summary}\n\nCommands:\n${lines.join('\n')}\n\nRun \`svcdb ${group.name} <command> --help\` for its options.\n`
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
