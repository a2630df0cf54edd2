import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Database } from '@svcdb/engine'

/** Options of {@link writeBackup}. */
export interface BackupOptions {
  dir: string
  snapshot?: string
  /** Backup files to keep in `dir`, newest first; all when absent. */
  keep?: number
  signal?: AbortSignal
}

const BACKUP_FILE = /^backup-\d{8}T\d{6}\d{3}Z-[0-9a-f]{12}\.svcdb$/

/**
 * Streams an export of HEAD (or a snapshot) to `dir/backup-<time>-<hash prefix>.svcdb`. It
 * is written under a temporary name and renamed once complete and flushed, so a crash never
 * leaves a truncated file with a final name; then the oldest backups beyond `keep` go.
 */
export async function writeBackup(
  db: Database,
  options: BackupOptions,
): Promise<{ file: string; bytes: number; version: string; removed: string[] }> {
  await mkdir(options.dir, { recursive: true })
  const version =
    options.snapshot === undefined ? db.head() : (await db.snapshots.get(options.snapshot)).version
  const time = new Date().toISOString().replace(/[-:.]/g, '')
  const name = `backup-${time}-${version.slice(0, 12)}.svcdb`
  const file = join(options.dir, name)
  const partial = `${file}.partial`
  try {
    await pipeline(
      Readable.from(
        db.exportArchive({ version, ...(options.signal ? { signal: options.signal } : {}) }),
      ),
      createWriteStream(partial, { flush: true }),
      ...(options.signal === undefined ? [] : [{ signal: options.signal }]),
    )
    await rename(partial, file)
  } catch (err) {
    await rm(partial, { force: true })
    throw err
  }
  const removed: string[] = []
  if (options.keep !== undefined) {
    const backups = (await readdir(options.dir)).filter((f) => BACKUP_FILE.test(f)).sort()
    for (const old of backups.slice(0, Math.max(0, backups.length - options.keep))) {
      await rm(join(options.dir, old), { force: true })
      removed.push(old)
    }
  }
  return { file, bytes: (await stat(file)).size, version, removed }
}
