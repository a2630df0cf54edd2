import type { Client } from '@svcdb/client'
import type { Command } from '../command'
import { formatKeyValue } from '../output/key-value'
import { formatTable } from '../output/table'
import type { Column } from '../output/table'

// The subcommands that every resource group (users, groups, cron, tasks, snapshots, forks,
// links…) has in the same shape: call one client method, print its answer. A group lists
// them as rows of data; this module is the one place that turns a row into a command.

/** `list`: every item as a table (a JSON array with `--json`). */
export interface ListRow<Item> {
  summary: string
  list(client: Client): Promise<Item[]>
  columns: readonly Column<Item>[]
}

/** `get`: one item named by the single argument, as `key value` lines. */
export interface GetRow {
  summary: string
  /** The argument's placeholder: `<id>`, `<name>`, `<user>`. */
  usage: string
  get(client: Client, id: string): Promise<object>
}

/** `delete` (or `revoke`, `cancel`, `abandon`…): one item named by the single argument. */
export interface RemoveRow<Result> {
  /** The subcommand's name. */
  name: string
  summary: string
  /** The argument's placeholder: `<id>`, `<name>`, `<key_id>`. */
  usage: string
  remove(client: Client, id: string): Promise<Result>
  /** The human line printed on success (the answer is printed as JSON with `--json`). */
  done(result: Result, id: string): string
}

/** A `list` subcommand from its row. */
export function listCommand<Item>(row: ListRow<Item>): Command {
  return {
    name: 'list',
    summary: row.summary,
    usage: '',
    args: [0, 0],
    async run(_p, _v, ctx) {
      const items = await row.list(await ctx.client())
      ctx.print(items, () => formatTable(items, row.columns))
    },
  }
}

/** A `get` subcommand from its row. */
export function getCommand(row: GetRow): Command {
  return {
    name: 'get',
    summary: row.summary,
    usage: row.usage,
    args: [1, 1],
    async run([id], _v, ctx) {
      const item = await row.get(await ctx.client(), id as string)
      ctx.print(item, () => formatKeyValue(item))
    },
  }
}

/** A subcommand that removes (deletes, revokes, cancels…) one item, from its row. */
export function removeCommand<Result>(row: RemoveRow<Result>): Command {
  return {
    name: row.name,
    summary: row.summary,
    usage: row.usage,
    args: [1, 1],
    async run([id], _v, ctx) {
      const result = await row.remove(await ctx.client(), id as string)
      ctx.print(result, () => row.done(result, id as string))
    },
  }
}
