import { basename, resolve } from 'node:path'
import type { Command } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { createProgress } from '../output/progress'
import { formatBytes } from '../output/table'
import { getTree } from './get-tree'
import { counting, openLocalSource, writeLocal } from './local-files'
import { putTree } from './put-tree'
import { forkOption, remote, selector, versionOptions } from './remote-options'

/** `svcdb put`: a file, standard input, or (-r) a tree. */
export const putCommand: Command = {
  name: 'put',
  summary: 'upload a local file (or - for stdin) to a path; -r a directory tree',
  usage: '<local|-> <remote>  |  -r <local-dir> <remote-dir>',
  details:
    'Large files go up in content-defined chunks and only the chunks the server lacks are sent\n' +
    '(--stream sends the bytes in one request instead).\n\n' +
    '-r uploads every regular file below a local directory to the same relative path below\n' +
    'the remote one (created when absent); a trailing / on the remote directory means into it\n' +
    '(put -r ./site /www/ writes /www/site/…, put -r ./site /www writes /www/…). Only the\n' +
    'chunks the server lacks are sent; each request commits up to 10,000 files as one\n' +
    'version. Symlinks and special files are skipped (listed on stderr); --content-type\n' +
    'applies to every file.\n\n' +
    'Examples: svcdb put report.pdf /docs/report.pdf\n' +
    '          svcdb put -r ./site /www\n' +
    '          svcdb put -r ./site /www/        # into /www: /www/site/…',
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
        intoDirectory(local as string, remote(target as string)),
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
}

/**
 * The remote directory `put -r` writes to: `target` itself, or with a trailing `/` (not the
 * root's) the local directory's name inside it, as `cp -r site www/` does.
 */
function intoDirectory(local: string, target: string): string {
  if (!target.endsWith('/')) return target
  const name = basename(resolve(local))
  return `${target}${name}`
}

/** `svcdb get`: a file, to standard output, or (-r) a tree. */
export const getCommand: Command = {
  name: 'get',
  summary: 'download a file to a local path (default: its name) or - for stdout; -r a tree',
  usage: '<remote> [local|-]  |  -r <remote-dir> <local-dir>',
  details:
    '-r downloads every file below a remote directory to the same relative path below the\n' +
    'local one (created when absent): its contents, with or without a trailing / (as put -r\n' +
    "uploads a directory's contents). Every file is read from one version, several at a time\n" +
    '(--jobs); a local file with the same size and content hash is left alone, so a second run\n' +
    'only fetches what changed. Symlinks are skipped (listed on stderr).\n\n' +
    'Examples: svcdb get /docs/report.pdf\n' +
    '          svcdb get -r /www ./site',
  options: {
    ...versionOptions,
    recursive: {
      type: 'boolean',
      short: 'r',
      help: 'Download every file below a remote directory into a local directory.',
    },
    jobs: {
      type: 'string',
      short: 'j',
      value: 'N',
      help: 'With -r, download up to N files at the same time (default 4).',
    },
    range: {
      type: 'string',
      value: 'START-END',
      help: 'Download only these bytes (END included; START- reads to the end).',
    },
  },
  args: [1, 2],
  async run([source, local], values, ctx) {
    const jobs = stringOption(values.jobs)
    if (jobs !== undefined && !/^[1-9]\d{0,2}$/.test(jobs))
      throw usageError('--jobs takes a whole number from 1 to 999')
    if (values.recursive === true) {
      if (local === undefined || local === '-')
        throw usageError('get -r takes a remote directory and a local directory')
      if (values.range !== undefined)
        throw usageError('--range reads one file; get -r cannot use it')
      await getTree(
        remote(source as string),
        local,
        { ...selector(values), ...(jobs === undefined ? {} : { jobs: Number(jobs) }) },
        ctx,
      )
      return
    }
    if (jobs !== undefined) throw usageError('--jobs is for get -r')
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
}
