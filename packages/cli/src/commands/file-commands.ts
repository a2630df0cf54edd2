import { basename } from 'node:path'
import type { EntryView } from '@svcdb/contract'
import type { Command, OptionSpecs } from '../command'
import { usageError } from '../cli-error'
import { createProgress } from '../output/progress'
import { formatBytes, formatTable, formatTime } from '../output/table'
import { formatKeyValue } from '../output/key-value'
import { counting, openLocalSource, writeLocal } from './local-files'
import { putTree } from './put-tree'
import { stringOption } from '../option-value'

const forkOption = {
  fork: { type: 'string', help: 'Work on this fork instead of HEAD.' },
} as const satisfies OptionSpecs
const versionOptions = {
  fork: { type: 'string', help: 'Read this fork instead of HEAD.' },
  snapshot: { type: 'string', help: 'Read this snapshot instead of HEAD.' },
  version: { type: 'string', value: 'HASH', help: 'Read this stored version instead of HEAD.' },
} as const satisfies OptionSpecs

const selector = (values: Record<string, unknown>) => {
  const out: { fork?: string; snapshot?: string; version?: string } = {}
  for (const key of ['fork', 'snapshot', 'version'] as const) {
    const value = stringOption(values[key])
    if (value !== undefined) out[key] = value
  }
  return out
}

/** Remote paths are absolute; `docs/a.txt` means `/docs/a.txt`. */
export const remote = (path: string) => (path.startsWith('/') ? path : `/${path}`)

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
  {
    name: 'put',
    summary: 'upload a local file (or - for stdin) to a path; -r a directory tree',
    usage: '<local|-> <remote>  |  -r <local-dir> <remote-dir>',
    details:
      'Large files go up in content-defined chunks and only the chunks the server lacks are sent\n' +
      '(--stream sends the bytes in one request instead).\n\n' +
      '-r uploads every regular file below a local directory to the same relative path below\n' +
      'the remote one (created when absent), sending only the chunks the server lacks; each\n' +
      'request commits up to 10,000 files as one version. Symlinks and special files are\n' +
      'skipped (listed on stderr); --content-type applies to every file.\n\n' +
      'Examples: svcdb put report.pdf /docs/report.pdf\n' +
      '          svcdb put -r ./site /www',
    options: {
      ...forkOption,
      'content-type': {
        type: 'string',
        value: 'TYPE',
        help: 'Store this media type instead of the one guessed from the name and bytes.',
      },
      stream: {
        type: 'boolean',
        help: 'Send the bytes in one request instead of only the chunks the server lacks.',
      },
      recursive: {
        type: 'boolean',
        short: 'r',
        help: 'Upload every regular file below a local directory.',
      },
    },
    args: [2, 2],
    async run([local, target], values, ctx) {
      if (values.recursive === true) {
        if (values.stream === true)
          throw usageError('--stream uploads one file; put -r cannot use it')
        if (local === '-') throw usageError('put -r takes a local directory, not -')
        const contentType = stringOption(values['content-type'])
        const fork = stringOption(values.fork)
        await putTree(
          local as string,
          remote(target as string),
          {
            ...(contentType === undefined ? {} : { contentType }),
            ...(fork === undefined ? {} : { fork }),
          },
          ctx,
        )
        return
      }
      const client = await ctx.client()
      const { stream, size } = await openLocalSource(local as string, ctx.io)
      const progress = createProgress({
        label: `put ${basename(local as string)}`,
        total: size,
        enabled: !ctx.json,
        ...(ctx.io.stderrStream === undefined ? {} : { stream: ctx.io.stderrStream }),
      })
      const contentType = stringOption(values['content-type'])
      const fork = stringOption(values.fork)
      try {
        const source = counting(stream, (n) => progress.update(n))
        const result =
          values.stream === true
            ? await client.files.write(remote(target as string), source, {
                ...(contentType === undefined ? {} : { contentType }),
                ...(fork === undefined ? {} : { fork }),
              })
            : await client.files.upload(remote(target as string), source, {
                ...(contentType === undefined ? {} : { contentType }),
                ...(fork === undefined ? {} : { fork }),
              })
        progress.stop()
        ctx.print(result, () => `${result.path}  ${formatBytes(result.size)}  ${result.hash}\n`)
      } finally {
        progress.stop()
      }
    },
  },
  {
    name: 'get',
    summary: 'download a file to a local path (default: its name) or - for stdout',
    usage: '<remote> [local|-]',
    options: {
      ...versionOptions,
      range: {
        type: 'string',
        value: 'START-END',
        help: 'Download only these bytes (END included; START- reads to the end).',
      },
    },
    args: [1, 2],
    async run([source, local], values, ctx) {
      const client = await ctx.client()
      const range = stringOption(values.range)
      let parsed: { start: number; end?: number } | undefined
      if (range !== undefined) {
        const match = /^(\d+)-(\d*)$/.exec(range)
        if (match === null) throw usageError('--range takes START-END or START- (bytes)')
        parsed = { start: Number(match[1]) }
        if (match[2] !== '') parsed.end = Number(match[2])
      }
      const download = await client.files.read(remote(source as string), {
        ...selector(values),
        ...(parsed === undefined ? {} : { range: parsed }),
      })
      if (download === undefined) return
      const destination = local ?? basename(source as string)
      const progress = createProgress({
        label: `get ${basename(source as string)}`,
        total: download.size,
        enabled: !ctx.json && destination !== '-',
        ...(ctx.io.stderrStream === undefined ? {} : { stream: ctx.io.stderrStream }),
      })
      try {
        const written = await writeLocal(download.body, destination, ctx.io, (n) =>
          progress.update(n),
        )
        progress.stop()
        if (destination !== '-')
          ctx.print(
            {
              path: remote(source as string),
              file: destination,
              size: written,
              hash: download.hash,
            },
            () => `${destination}  ${formatBytes(written)}\n`,
          )
      } finally {
        progress.stop()
      }
    },
  },
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
