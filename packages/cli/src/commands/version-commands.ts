import type { Command, OptionValues } from '../command'
import { usageError } from '../cli-error'
import { openDataDir } from '../offline/open-data-dir'
import { formatBytes, formatTable, formatTime } from '../output/table'
import { dataOption, saveArchive, toWebStream } from './archive-output'
import { diffCommand } from './diff-command'
import { remote } from './remote-options'
import { stringOption } from '../option-value'
import { promoteCommand } from './head-commands'
import { importCommand } from './import-command'

/** `history`, `restore`, `export`, `import`, `diff`, `promote`, `verify`. */
export const versionCommands: Command[] = [
  {
    name: 'history',
    summary: 'how a path changed across versions and snapshots',
    usage: '<remote>',
    args: [1, 1],
    async run([path], _v, ctx) {
      const items = await (await ctx.client()).versions.history(remote(path as string))
      ctx.print(items, () =>
        formatTable(items, [
          { heading: 'when', cell: (i) => formatTime(i.timestamp) },
          { heading: 'change', cell: (i) => i.change_type },
          { heading: 'size', cell: (i) => formatBytes(i.size), right: true },
          { heading: 'snapshot', cell: (i) => i.snapshot ?? '' },
          { heading: 'version', cell: (i) => i.version },
        ]),
      )
    },
  },
  {
    name: 'restore',
    summary: 'put back what a path held in a snapshot or version (root)',
    usage: '<remote>',
    options: {
      snapshot: { type: 'string', help: 'Put back what the path held in this snapshot.' },
      version: {
        type: 'string',
        value: 'HASH',
        help: 'Put back what the path held in this version.',
      },
    },
    args: [1, 1],
    async run([path], values, ctx) {
      const snapshot = stringOption(values.snapshot)
      const version = stringOption(values.version)
      if ((snapshot === undefined) === (version === undefined))
        throw usageError('give exactly one of --snapshot and --version')
      const result = await (
        await ctx.client()
      ).versions.restoreFile(
        remote(path as string),
        snapshot !== undefined ? { snapshot } : { version: version as string },
      )
      ctx.print(result, () => `restored ${result.path} (version ${result.version})\n`)
    },
  },
  {
    name: 'export',
    summary: 'write a .svcdb archive of HEAD, a snapshot or a version',
    usage: '',
    details: "Online by default (root); --data DIR reads a stopped server's data directory.",
    options: {
      snapshot: { type: 'string', help: 'Export this snapshot instead of HEAD.' },
      hash: { type: 'string', help: 'Export this stored version instead of HEAD.' },
      output: {
        type: 'string',
        short: 'o',
        value: 'FILE',
        help: "Write the archive here (- for stdout; default: the server's file name).",
      },
      ...dataOption,
    },
    args: [0, 0],
    async run(_p, values, ctx) {
      const snapshot = stringOption(values.snapshot)
      const hash = stringOption(values.hash)
      const data = stringOption(values.data)
      if (data !== undefined) {
        const db = await openDataDir(data)
        try {
          const version =
            hash ??
            (snapshot === undefined ? db.head() : (await db.snapshots.get(snapshot)).version)
          const output = stringOption(values.output) ?? `export-${version.slice(0, 12)}.svcdb`
          await saveArchive(ctx, toWebStream(db.exportArchive({ version })), output, 'export')
        } finally {
          await db.close()
        }
        return
      }
      const archive = await (
        await ctx.client()
      ).versions.export({
        ...(snapshot === undefined ? {} : { snapshot }),
        ...(hash === undefined ? {} : { hash }),
      })
      await saveArchive(
        ctx,
        archive.body,
        stringOption(values.output) ?? archive.filename,
        'export',
      )
    },
  },
  diffCommand,
  importCommand,
  promoteCommand,
  {
    name: 'verify',
    summary: "check every object and chunk of a stopped server's data directory",
    usage: '',
    details: 'Offline only: svcdb verify --data DIR. Exits 1 when anything is missing or corrupt.',
    options: dataOption,
    args: [0, 0],
    async run(_p, values: OptionValues, ctx) {
      const data = stringOption(values.data)
      if (data === undefined) throw usageError('verify reads a data directory: give --data DIR')
      const db = await openDataDir(data)
      try {
        const report = await db.verify()
        ctx.print(report, () =>
          report.ok
            ? `ok: ${report.checked} objects and chunks checked\n`
            : [...report.missing, ...report.corrupt].map((p) => `${JSON.stringify(p)}\n`).join('') +
              `${report.missing.length} missing, ${report.corrupt.length} corrupt\n`,
        )
        return report.ok ? undefined : 1
      } finally {
        await db.close()
      }
    },
  },
]
