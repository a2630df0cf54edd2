import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { CliError } from '../cli-error'
import { EXIT_CODES } from '../exit-codes'

/** A regular file found below a local directory. */
export interface LocalTreeFile {
  /** Its path on this machine. */
  local: string
  /** Its path below the walked directory, `/`-separated (`sub/a.txt`). */
  relative: string
}

/** Throws a one-line error unless `dir` is a local directory. */
export async function assertLocalDirectory(dir: string): Promise<void> {
  let isDirectory: boolean
  try {
    isDirectory = (await stat(dir)).isDirectory()
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new CliError(`${dir}: no such directory`, EXIT_CODES.NOT_FOUND)
    throw new CliError(`cannot read ${dir}: ${(err as Error).message}`)
  }
  if (!isDirectory)
    throw new CliError(`${dir} is not a directory (put without -r uploads one file)`)
}

/**
 * The regular files below `dir`, depth first, each directory's entries in name order, read
 * one directory at a time so memory does not grow with the tree. Symlinks and special files
 * are not followed: `onSkipped` hears of each.
 */
export async function* walkLocalTree(
  dir: string,
  onSkipped: (relative: string) => void = () => undefined,
): AsyncGenerator<LocalTreeFile> {
  async function* walk(local: string, relative: string): AsyncGenerator<LocalTreeFile> {
    let entries
    try {
      entries = await readdir(local, { withFileTypes: true })
    } catch (err) {
      throw new CliError(`cannot read ${local}: ${(err as Error).message}`)
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      const path = join(local, entry.name)
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) yield* walk(path, rel)
      else if (entry.isFile()) yield { local: path, relative: rel }
      else onSkipped(rel)
    }
  }
  yield* walk(dir, '')
}
