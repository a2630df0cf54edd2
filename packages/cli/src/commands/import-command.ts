import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { isClientError } from '@svcdb/client'
import type { Command, CommandContext } from '../command'
import { CliError } from '../cli-error'
import { EXIT_CODES } from '../exit-codes'
import { openDataDir } from '../offline/open-data-dir'
import { formatKeyValue } from '../output/key-value'
import { createProgress } from '../output/progress'
import { stringOption } from '../option-value'
import { counting } from './local-files'

/**
 * `svcdb import <file|->`: through the server (archives above its 10 MiB body limit are
 * staged and imported from there by the client), or offline with `--data DIR`, which seeds a
 * new database when DIR does not exist yet.
 */
export const importCommand: Command = {
  name: 'import',
  summary: 'import an export or a patch (- for stdin)',
  usage: '<file|->',
  options: {
    force: { type: 'boolean', help: "Apply a patch even when its base is not the target's HEAD." },
    promote: { type: 'boolean', help: 'Make the imported version HEAD.' },
    data: {
      type: 'string',
      value: 'DIR',
      help: "Work on a stopped server's data directory through the engine, without a server.",
    },
  },
  args: [1, 1],
  async run([file], values, ctx) {
    const path = file as string
    const size = path === '-' ? undefined : (await stat(path).catch(() => undefined))?.size
    if (path !== '-' && size === undefined)
      throw new CliError(`${path}: no such file`, EXIT_CODES.NOT_FOUND)
    const stream = path === '-' ? ctx.io.stdin : createReadStream(path)
    if (stream === undefined) throw new CliError('no standard input to read')
    const progress = createProgress({
      label: 'import',
      total: size,
      enabled: !ctx.json,
      ...(ctx.io.stderrStream === undefined ? {} : { stream: ctx.io.stderrStream }),
    })
    const source = counting(stream, (n) => progress.update(n))
    const options = { force: values.force === true, promote: values.promote === true }
    const data = stringOption(values.data)
    try {
      const result =
        data === undefined
          ? await importOnline(ctx, source, options)
          : await importOffline(data, source, options)
      progress.stop()
      ctx.print(result, () => formatKeyValue(result))
    } finally {
      progress.stop()
    }
  },
}

/**
 * Imports through the server. A patch on another HEAD comes back as the wire's BAD_REQUEST
 * (the engine's BASE_MISMATCH); it is a conflict with the current state, exit 5 as offline.
 */
async function importOnline(
  ctx: CommandContext,
  source: AsyncIterable<Uint8Array>,
  options: { force: boolean; promote: boolean },
) {
  try {
    return await (await ctx.client()).versions.import(source, options)
  } catch (err) {
    if (isClientError(err, 'BAD_REQUEST') && err.message.startsWith('the patch applies to version'))
      throw new CliError(`BASE_MISMATCH: ${err.message}`, EXIT_CODES.CONFLICT, 'BASE_MISMATCH')
    throw err
  }
}

/** Imports into a stopped server's data directory, creating it (and removing it again on failure) when absent. */
async function importOffline(
  dir: string,
  source: AsyncIterable<Uint8Array>,
  options: { force: boolean; promote: boolean },
): Promise<Record<string, unknown>> {
  const seeding = (await stat(dir).catch(() => undefined)) === undefined
  let succeeded = false
  try {
    const db = await openDataDir(dir, { create: seeding })
    try {
      const result = await db.importArchive(source, options)
      succeeded = true
      // The same fields, in the same snake_case, as the server's answer.
      return Object.fromEntries(
        Object.entries(result).map(([key, value]) => [
          key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
          value,
        ]),
      )
    } finally {
      await db.close()
    }
  } finally {
    // A failed seed leaves nothing behind: the next try starts from a missing directory again.
    if (seeding && !succeeded) await rm(dir, { recursive: true, force: true })
  }
}
