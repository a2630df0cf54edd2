import type { Client } from '@svcdb/client'
import type { CliIo } from './cli-io'
import type { Connection } from './connection/connect'
import type { ExitCode } from './exit-codes'

/** One option: what `node:util` `parseArgs` takes, plus the sentence its help shows. */
export interface OptionSpec {
  type: 'string' | 'boolean'
  short?: string
  multiple?: boolean
  /** One sentence for `--help`: what the option does. */
  help: string
  /** The value's placeholder in help (default: the option's name in upper case). */
  value?: string
}

/** A command's options by long name. */
export type OptionSpecs = Record<string, OptionSpec>

/** Parsed option values. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>

/** What a running command can use. */
export interface CommandContext {
  io: CliIo
  env: Record<string, string | undefined>
  /** `--json`: print one JSON document, no tables, no progress. */
  json: boolean
  /** The server connection (resolved from flags, env and profiles on first use). */
  connection(): Promise<Connection>
  /** A client of that connection. */
  client(): Promise<Client>
  /** Prints `value` as JSON with `--json`, else the human text `human()` makes. */
  print(value: unknown, human: () => string): void
}

/** One command (`put`) or subcommand (`snapshot create`). */
export interface Command {
  name: string
  summary: string
  /** Arguments after the command, e.g. `<local|-> <remote>`. */
  usage: string
  /** More help: what it does, examples. */
  details?: string
  options?: OptionSpecs
  /**
   * Wire fields whose option (or argument) is named otherwise, so a validation error names
   * what the user typed: `{ rules: '--rule', task_type: '<type>' }`. A field `expires_in_days`
   * with an option `--expires-in-days` needs no entry.
   */
  wireOptions?: Record<string, string>
  /** How many positional arguments it takes: `[min, max]`. */
  args: readonly [number, number]
  run(
    positionals: string[],
    values: OptionValues,
    ctx: CommandContext,
  ): Promise<ExitCode | undefined | void>
}

/** A command with subcommands (`snapshot`, `users`…). */
export interface CommandGroup {
  name: string
  summary: string
  /** More help, shown under the list of subcommands. */
  details?: string
  subcommands: readonly Command[]
}
