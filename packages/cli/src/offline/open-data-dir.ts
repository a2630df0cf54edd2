import { mkdir, stat } from 'node:fs/promises'
import type { Database } from '@svcdb/engine'
import { CliError } from '../cli-error'

/**
 * Opens a stopped server's data directory with the engine, for offline maintenance. A
 * running server holds the directory's lock, so this fails with a clear message then. It
 * creates a database where none is only with `create` (`import --data` seeding a new one).
 */
export async function openDataDir(
  dir: string,
  options: { create?: boolean } = {},
): Promise<Database> {
  if (options.create === true) await mkdir(dir, { recursive: true })
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a directory')
  } catch {
    throw new CliError(`${dir} is not a svcdb data directory`)
  }
  const { Database: Engine, isEngineError } = await import('@svcdb/engine')
  try {
    return await Engine.open({ path: dir })
  } catch (err) {
    if (isEngineError(err, 'LOCKED'))
      throw new CliError(
        `${dir} is in use by a running server: stop it first, or drop --data to go through the server`,
      )
    throw err
  }
}
