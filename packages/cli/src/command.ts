import type { ParseArgsConfig } from 'node:util'
import type { Client } from '@svcdb/client'
import type { CliIo } from './cli-io'
import type { Connection } from './connection/connect'
import type { ExitCode } from './exit-codes'

/** Option definitions, as `node:util` `parseArgs` takes them. */
export type OptionSpecs = NonNullable<ParseArgsConfig['options']>

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
  subcommands: readonly Command[]
}
