import { isClientError } from '@svcdb/client'
import type { Client, HeadLogItem } from '@svcdb/client'
import type { Command, CommandContext, OptionSpecs } from '../command'
import { CliError, usageError } from '../cli-error'
import { EXIT_CODES } from '../exit-codes'
import { openDataDir } from '../offline/open-data-dir'
import { stringOption } from '../option-value'
import { formatTable, formatTime } from '../output/table'
import { discardedChanges } from './discarded-changes'

/** Largest `--limit` of `svcdb log`. */
const MAX_LOG_ITEMS = 10_000

/** What a promote printed: the new HEAD, the one it replaced, and how to get it back. */
function moveText(head: string, previous: string): string {
  if (head === previous) return `HEAD ${head} (unchanged)\n`
  return `HEAD ${head} (was ${previous})\nundo: svcdb promote ${previous}\n`
}

/** The current HEAD, read as the root directory's hash. */
async function currentHead(ctx: CommandContext): Promise<string> {
  return (await (await ctx.client()).files.stat('/')).hash
}

/**
 * Runs a move guarded by `expect_head: read`; when HEAD moved in between (409), refuses
 * (exit 5) naming what the move would have set aside: the entries changed since `read`.
 */
async function guardedMove<T>(client: Client, read: string, move: () => Promise<T>): Promise<T> {
  try {
    return await move()
  } catch (err) {
    if (!isClientError(err, 'CONFLICT')) throw err
    throw new CliError(
      `HEAD moved while promoting, so nothing changed: promoting now would set aside ` +
        `${await discardedChanges(client, read)}. Run the command again to promote over them ` +
        '(a fork promote then needs --force); the replaced HEAD stays recoverable (see svcdb log).',
      EXIT_CODES.CONFLICT,
    )
  }
}

const forceOption = {
  force: {
    type: 'boolean',
    help: 'Replace HEAD even when it moved since it was read (it stays recoverable).',
  },
} as const satisfies OptionSpecs

/**
 * `svcdb promote <hash>`: sends the HEAD it read as `expect_head`, so a HEAD that moves in
 * between is refused (exit 5) rather than set aside; prints the undo command.
 */
export const promoteCommand: Command = {
  name: 'promote',
  summary: 'make any stored version HEAD (root); prints how to undo it',
  usage: '<hash>',
  details:
    'Refuses (exit 5) if HEAD moves between reading it and promoting; --force skips that check. ' +
    'The replaced HEAD is kept (see svcdb log) and `svcdb promote <previous>` brings it back.',
  options: {
    ...forceOption,
    data: {
      type: 'string',
      value: 'DIR',
      help: "Work on a stopped server's data directory through the engine, without a server.",
    },
  },
  args: [1, 1],
  async run([hash], values, ctx) {
    const data = stringOption(values.data)
    if (data !== undefined) {
      const db = await openDataDir(data)
      try {
        const moved = await db.promote(hash as string)
        const result = { status: 'promoted', head: moved.version, previous: moved.previous }
        ctx.print(result, () => moveText(moved.version, moved.previous))
      } finally {
        await db.close()
      }
      return
    }
    const client = await ctx.client()
    const previous = await currentHead(ctx)
    const result =
      values.force === true
        ? await client.versions.promote(hash as string)
        : await guardedMove(client, previous, () =>
            client.versions.promote(hash as string, { expectHead: previous }),
          )
    ctx.print({ ...result, previous }, () => moveText(result.head, previous))
  },
}

/**
 * `svcdb fork promote <name>`: refuses (exit 5) when HEAD moved since the fork was made,
 * naming the HEAD that would be set aside and the entries changed on it since the fork; `--force` promotes anyway, still guarded by
 * `expect_head` against a move in between. Prints the undo command.
 */
export const forkPromoteCommand: Command = {
  name: 'promote',
  summary: "make the fork's latest version HEAD (root); refuses if HEAD moved since the fork",
  usage: '<name>',
  details:
    'When HEAD has commits the fork does not (HEAD moved since the fork was created), promoting ' +
    'would set them aside: the command refuses with exit 5, naming that HEAD, how many entries ' +
    'changed on it since the fork and up to 10 of their paths. --force promotes ' +
    'anyway; the replaced HEAD stays recoverable with `svcdb promote <previous>` (see svcdb log).',
  options: forceOption,
  args: [1, 1],
  async run([name], values, ctx) {
    const client = await ctx.client()
    const forks = await client.versions.forks.list()
    const fork = forks.find((f) => f.name === name)
    if (fork === undefined)
      throw new CliError(`no fork named ${JSON.stringify(name)}`, EXIT_CODES.NOT_FOUND)
    const head = await currentHead(ctx)
    if (head !== fork.base && values.force !== true) {
      throw new CliError(
        `HEAD moved since fork ${JSON.stringify(name)} was created: it is now ${head} (the fork ` +
          `started from ${fork.base}). Promoting would set aside ` +
          `${await discardedChanges(client, fork.base)}. ` +
          `Carry them into the fork first, or pass --force (they stay recoverable with ` +
          `\`svcdb promote ${head}\`).`,
        EXIT_CODES.CONFLICT,
      )
    }
    const result = await guardedMove(client, head, () =>
      client.versions.forks.promote(name as string, { expectHead: head }),
    )
    ctx.print(result, () => moveText(result.head, result.previous))
  },
}

/** `svcdb log`: the HEAD moves that replaced history, newest first. */
export const logCommand: Command = {
  name: 'log',
  summary: 'HEAD moves that replaced history (promotes, restores, imports), newest first',
  usage: '',
  details:
    'Each line names the version HEAD replaced; `svcdb promote <previous>` brings it back while ' +
    "it is within the server's --head-log-retention (default 30 days).",
  options: {
    limit: { type: 'string', short: 'n', value: 'N', help: 'Show at most N moves (default 20).' },
  },
  args: [0, 0],
  async run(_p, values, ctx) {
    const raw = stringOption(values.limit) ?? '20'
    const limit = Number(raw)
    if (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_LOG_ITEMS)
      throw usageError(`--limit takes an integer from 1 to ${MAX_LOG_ITEMS}`)
    const client = await ctx.client()
    const items: HeadLogItem[] = []
    for await (const item of client.versions.logAll({ limit: Math.min(limit, 1000) })) {
      items.push(item)
      if (items.length === limit) break
    }
    ctx.print(items, () =>
      items.length === 0
        ? 'no HEAD moves logged\n'
        : formatTable(items, [
            { heading: 'when', cell: (i) => formatTime(i.at) },
            { heading: 'cause', cell: (i) => i.cause },
            { heading: 'head', cell: (i) => i.head },
            { heading: 'previous', cell: (i) => i.previous },
            { heading: 'by', cell: (i) => i.by ?? '' },
          ]),
    )
  },
}
