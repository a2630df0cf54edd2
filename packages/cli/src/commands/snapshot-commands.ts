import type { ForkView } from '@svcdb/contract'
import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { formatTime } from '../output/table'
import type { Column } from '../output/table'
import { forkPromoteCommand } from './head-commands'
import { listCommand, removeCommand } from './resource-commands'

interface Named {
  name: string
  created_at: number
  version: string
}

const snapshotColumns: Column<Named>[] = [
  { heading: 'name', cell: (s) => s.name },
  { heading: 'created', cell: (s) => formatTime(s.created_at) },
  { heading: 'version', cell: (s) => s.version },
]

/** `svcdb snapshot …` */
export const snapshotGroup: CommandGroup = {
  name: 'snapshot',
  summary: 'create, list, delete and restore named snapshots',
  subcommands: [
    {
      name: 'create',
      summary: 'name the current HEAD',
      usage: '<name>',
      options: {
        metadata: {
          type: 'string',
          value: 'JSON',
          help: 'A JSON object stored with the snapshot.',
        },
      },
      args: [1, 1],
      async run([name], values, ctx) {
        const metadataText = stringOption(values.metadata)
        let metadata: Record<string, unknown> | undefined
        if (metadataText !== undefined) {
          try {
            metadata = JSON.parse(metadataText) as Record<string, unknown>
          } catch {
            throw usageError('--metadata takes a JSON object')
          }
        }
        const client = await ctx.client()
        const snapshot = await client.versions.snapshots.create(
          name as string,
          metadata === undefined ? {} : { metadata },
        )
        ctx.print(snapshot, () => `${snapshot.name}  ${snapshot.version}\n`)
      },
    },
    listCommand({
      summary: 'list snapshots',
      list: (client) => client.versions.snapshots.list(),
      columns: snapshotColumns,
    }),
    removeCommand({
      name: 'delete',
      summary: 'delete a snapshot (its data goes at the next GC unless still used)',
      usage: '<name>',
      remove: (client, name) => client.versions.snapshots.delete(name),
      done: (result) => `deleted snapshot ${result.name}\n`,
    }),
    {
      name: 'restore',
      summary: 'make a snapshot HEAD again (root)',
      usage: '<name>',
      args: [1, 1],
      async run([name], _v, ctx) {
        const result = await (await ctx.client()).versions.snapshots.restore(name as string)
        ctx.print(
          result,
          () =>
            `HEAD ${result.head} (was ${result.previous})\nundo: svcdb promote ${result.previous}\n`,
        )
      },
    },
  ],
}

/** `svcdb fork …` */
export const forkGroup: CommandGroup = {
  name: 'fork',
  summary: 'create, list, promote and abandon forks (write to one with --fork)',
  subcommands: [
    {
      name: 'create',
      summary: 'start a fork at HEAD, or at --base (a snapshot or version hash)',
      usage: '<name>',
      options: {
        base: {
          type: 'string',
          help: 'Start the fork from this snapshot or version hash (default: HEAD).',
        },
      },
      args: [1, 1],
      async run([name], values, ctx) {
        const base = stringOption(values.base)
        const fork = await (
          await ctx.client()
        ).versions.forks.create(name as string, base === undefined ? {} : { base })
        ctx.print(fork, () => `${fork.name}  ${fork.version}\n`)
      },
    },
    listCommand<ForkView>({
      summary: 'list forks',
      list: (client) => client.versions.forks.list(),
      columns: [...snapshotColumns, { heading: 'base', cell: (f) => f.base.slice(0, 12) }],
    }),
    forkPromoteCommand,
    removeCommand({
      name: 'abandon',
      summary: 'remove a fork (root)',
      usage: '<name>',
      remove: (client, name) => client.versions.forks.abandon(name),
      done: (result) => `abandoned fork ${result.name}\n`,
    }),
  ],
}
