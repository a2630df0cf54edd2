import { mkdir, readdir, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'

/** One cached record found on disk. */
export interface CachedRecordFile {
  /** The chunk's hash in hex: the file's name. */
  name: string
  size: number
}

const FOLDER = /^[0-9a-f]{2}$/
const RECORD = /^[0-9a-f]{64}$/
const TEMP = /^[0-9a-f]{64}\.tmp-/

/**
 * The records of a blob chunk cache directory (created when missing), least recently
 * modified first; temp files of writes a crash cut short are deleted. Other files are left
 * alone and not counted.
 */
export async function scanBlobChunkCache(dir: string): Promise<CachedRecordFile[]> {
  await mkdir(dir, { recursive: true })
  const found: (CachedRecordFile & { modified: number })[] = []
  for (const folder of await readdir(dir)) {
    if (!FOLDER.test(folder)) continue
    const path = join(dir, folder)
    let names: string[]
    try {
      names = await readdir(path)
    } catch {
      continue // a file, or gone
    }
    for (const name of names) {
      if (TEMP.test(name)) {
        await unlink(join(path, name)).catch(() => undefined)
      } else if (RECORD.test(name) && name.startsWith(folder)) {
        const info = await stat(join(path, name)).catch(() => undefined)
        if (info?.isFile()) found.push({ name, size: info.size, modified: info.mtimeMs })
      }
    }
  }
  found.sort((a, b) => a.modified - b.modified)
  return found.map(({ name, size }) => ({ name, size }))
}
