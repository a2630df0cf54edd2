import { stat } from 'node:fs/promises'
import type { Command, OptionValues } from '../command'
import { CliError, usageError } from '../cli-error'
import { stringOption } from '../option-value'

/**
 * `svcdb repair --data DIR`: the offline repair a server names when it refuses to start on
 * damaged metadata. Runs the engine's `repairDatabase` (lazily imported: the engine is only
 * loaded by offline commands) and prints what was set aside and which paths lost content.
 */
export const repairCommand: Command = {
  name: 'repair',
  summary: "rebuild the damaged metadata of a stopped server's data directory",
  usage: '',
  details:
    'Offline only: svcdb repair --data DIR. Keep a copy of DIR first: the repair rewrites ' +
    'its metadata, moves unreadable files to DIR/meta/lost/, then verifies the database and ' +
    'names every path whose content was lost. Exits 1 when anything is still missing or corrupt.',
  options: {
    data: { type: 'string', value: 'DIR', help: "The stopped server's data directory to repair." },
  },
  args: [0, 0],
  async run(_p, values: OptionValues, ctx) {
    const data = stringOption(values.data)
    if (data === undefined) throw usageError('repair works on a data directory: give --data DIR')
    try {
      if (!(await stat(data)).isDirectory()) throw new Error('not a directory')
    } catch {
      throw new CliError(`${data} is not a svcdb data directory`)
    }
    const { repairDatabase, isEngineError } = await import('@svcdb/engine')
    let report: Awaited<ReturnType<typeof repairDatabase>>
    try {
      report = await repairDatabase(data)
    } catch (err) {
      if (isEngineError(err, 'LOCKED'))
        throw new CliError(`${data} is in use by a running server: stop it first`)
      throw err
    }
    ctx.print(report, () => {
      const lines = [`repaired: HEAD is ${report.head}\n`]
      for (const table of report.unreadableTables)
        lines.push(`unreadable, its records are lost: ${table}\n`)
      for (const path of report.lostPaths) lines.push(`lost content: ${path}\n`)
      if (report.setAside.length > 0)
        lines.push(`set aside for inspection: ${report.setAside.length} files in meta/lost/\n`)
      lines.push(
        report.verify.ok
          ? `ok: ${report.verify.checked} objects and chunks checked\n`
          : `${report.verify.missing.length} missing, ${report.verify.corrupt.length} corrupt: ` +
              'restore those paths from a backup or an older version\n',
      )
      return lines.join('')
    })
    return report.verify.ok ? undefined : 1
  },
}
