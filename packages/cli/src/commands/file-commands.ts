import type { EntryView } from '@svcdb/contract'
import type { Command } from '../command'
import { formatKeyValue } from '../output/key-value'
import { formatBytes, formatTable, formatTime } from '../output/table'
import { stringOption } from '../option-value'
import { forkOption, remote, selector, versionOptions } from './remote-options'
import { getCommand, putCommand } from './transfer-commands'

const TYPE_NAMES = { file: 'file', directory: 'dir', symlink: 'link' } as const

const entryColumns = [
  { heading: 'type', cell: (e: EntryView) => TYPE_NAMES[e.entry_type] },
  {
    heading: 'size',
    cell: (e: EntryView) => (e.entry_type === 'file' ? formatBytes(e.size) : '-'),
    right: true,
  },
  { heading: 'updated', cell: (e: EntryView) => formatTime(e.updated_at) },
  {
    heading: 'path',
    cell: (e: EntryView) => (e.target === undefined ? e.path : `${e.path} -> ${e.target}`),
  },
]

/** `put`, `get`, `ls`, `stat`, `rm`, `mv`, `cp`, `ln`. */
export const fileCommands: Command[] = [
  putCommand,
  getCommand,
  {
    name: 'ls',
    summary: 'list a directory (default /)',
    usage: '[remote]',
    options: {
      ...versionOptions,
      recursive: {
        type: 'boolean',
        short: 'r',
        help: 'List every entry below, not only the directory.',
      },
      glob: { type: 'string', help: 'Only entries whose name matches this glob (e.g. "*.json").' },
      nofollow: { type: 'boolean', help: 'Show a symlink itself instead of what it points to.' },
    },
    args: [0, 1],
    async run([dir], values, ctx) {
      const client = await ctx.client()
      const glob = stringOption(values.glob)
      const entries: EntryView[] = []
      for await (const entry of client.files.list(remote(dir ?? '/'), {
        ...selector(values),
        ...(values.recursive === true ? { depth: -1 as const } : {}),
        ...(glob === undefined ? {} : { glob }),
        ...(values.nofollow === true ? { nofollow: true } : {}),
      }))
        entries.push(entry)
      ctx.print(entries, () => formatTable(entries, entryColumns))
    },
  },
  {
    name: 'stat',
    summary: 'show what a path holds',
    usage: '<remote>',
    options: {
      ...versionOptions,
      nofollow: { type: 'boolean', help: 'Show a symlink itself instead of what it points to.' },
    },
    args: [1, 1],
    async run([path], values, ctx) {
      const client = await ctx.client()
      const entry = await client.files.stat(remote(path as string), {
        ...selector(values),
        ...(values.nofollow === true ? { nofollow: true } : {}),
      })
      ctx.print(entry, () => formatKeyValue(entry))
    },
  },
  {
    name: 'rm',
    summary: 'delete a file, symlink, or (with -r) a directory',
    usage: '<remote>',
    options: {
      ...forkOption,
      recursive: { type: 'boolean', short: 'r', help: 'Delete a directory and everything in it.' },
    },
    args: [1, 1],
    async run([path], values, ctx) {
      const client = await ctx.client()
      const fork = stringOption(values.fork)
      const result = await client.files.delete(remote(path as string), {
        recursive: values.recursive === true,
        ...(fork === undefined ? {} : { fork }),
      })
      ctx.print(result, () => `deleted ${result.path}\n`)
    },
  },
  {
    name: 'mv',
    summary: 'move or rename an entry',
    usage: '<from> <to>',
    options: forkOption,
    args: [2, 2],
    async run([from, to], values, ctx) {
      const client = await ctx.client()
      const fork = stringOption(values.fork)
      const result = await client.files.move(
        remote(from as string),
        remote(to as string),
        fork === undefined ? {} : { fork },
      )
      ctx.print(result, () => `${remote(from as string)} -> ${result.path}\n`)
    },
  },
  {
    name: 'cp',
    summary: 'copy entries into a directory (references only, no bytes copied)',
    usage: '<remote...> <directory>',
    options: forkOption,
    args: [2, 1001],
    async run(paths, values, ctx) {
      const client = await ctx.client()
      const destination = paths.pop() as string
      const fork = stringOption(values.fork)
      const result = await client.files.copy(
        paths.map(remote),
        remote(destination),
        fork === undefined ? {} : { fork },
      )
      ctx.print(result, () => result.items.map((item) => `${item.path}\n`).join(''))
    },
  },
  {
    name: 'ln',
    summary: 'create or replace a symlink at a path pointing to a target',
    usage: '<path> <target>',
    options: forkOption,
    args: [2, 2],
    async run([path, target], values, ctx) {
      const client = await ctx.client()
      const fork = stringOption(values.fork)
      const result = await client.files.symlink(
        remote(path as string),
        remote(target as string),
        fork === undefined ? {} : { fork },
      )
      ctx.print(result, () => `${result.path} -> ${remote(target as string)}\n`)
    },
  },
]
