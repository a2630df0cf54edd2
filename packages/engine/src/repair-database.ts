import { mkdir, readdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { Database } from './database'
import { EngineError } from './errors'
import { FORMAT_KEY } from './meta/keys'
import { damagedTables } from './meta/level-files-check'
import { isLevelLocked } from './meta/level-lock-probe'
import { createLevelMetaStore } from './meta/level-meta-store'
import type { VerifyResult } from './verify/verify-database'

/** What {@link repairDatabase} did and what the database lost. */
export interface RepairResult {
  /**
   * Files moved to `meta/lost/` (paths relative to the data directory): the old logs and
   * manifests, whose records now live in new tables, and every unreadable table. Kept for
   * inspection; delete them once the database is known good.
   */
  setAside: string[]
  /** The tables among {@link RepairResult.setAside} that could not be read: their records are lost. */
  unreadableTables: string[]
  /** `verify` of the repaired database. */
  verify: VerifyResult
  /** Paths whose content is gone or damaged, in any version (sorted, from `verify`). */
  lostPaths: string[]
  /** HEAD after the repair. */
  head: string
}

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch((err: { code?: unknown }) => {
    if (err.code === 'ENOENT') return []
    throw err
  })
}

/**
 * Repairs the LevelDB metadata of the database directory `path` (LevelDB's `RepairDB`: every
 * readable log and table is rescanned, a new manifest and `CURRENT` written, unreadable files
 * moved to `meta/lost/`), then opens the database and verifies it, reporting what was lost.
 * Run it only on an operator's request, on a stopped database, after keeping a copy: it
 * rewrites the metadata directory. Fails with `LOCKED` while another process holds the
 * directory, `NOT_FOUND` when it holds no database, and `CONTENT_CORRUPT` when the repaired
 * metadata lost the database's format record (nothing else is then written).
 *
 * @example
 * const report = await repairDatabase('./data')
 * if (!report.verify.ok) console.log('lost:', report.lostPaths)
 */
export async function repairDatabase(path: string): Promise<RepairResult> {
  const metaDir = join(path, 'meta')
  const before = await names(metaDir)
  if (!before.some((name) => /^(CURRENT|MANIFEST-\d+|\d+\.(log|ldb|sst))$/.test(name)))
    throw new EngineError('NOT_FOUND', `no svcdb database at ${path}`)
  if (await isLevelLocked(metaDir))
    throw new EngineError('LOCKED', `database at ${path} is locked: another process has it open`)
  const lostDir = join(metaDir, 'lost')
  const lostBefore = new Set(await names(lostDir))
  await levelRepair(metaDir)
  // LevelDB's repair reads a table without checking its index block's checksum, which the
  // open check does: such a table is set aside too, so the database opens afterwards.
  const unreadable = await damagedTables(metaDir)
  if (unreadable.length > 0) {
    await mkdir(lostDir, { recursive: true })
    for (const { name } of unreadable) await rename(join(metaDir, name), join(lostDir, name))
    await levelRepair(metaDir)
  }
  const setAside = (await names(lostDir))
    .filter((name) => !lostBefore.has(name))
    .map((name) => `meta/lost/${name}`)
    .sort()
  await assertFormatKept(metaDir, path)
  const db = await Database.open({ path })
  try {
    const verify = await db.verify()
    const lostPaths = new Set<string>()
    for (const problem of [...verify.missing, ...verify.corrupt])
      for (const p of problem.paths) lostPaths.add(p)
    return {
      setAside,
      unreadableTables: setAside.filter((name) => /\.(ldb|sst)$/.test(name)),
      verify,
      lostPaths: [...lostPaths].sort(),
      head: db.head(),
    }
  } finally {
    await db.close()
  }
}

async function levelRepair(metaDir: string): Promise<void> {
  try {
    await ClassicLevel.repair(metaDir)
  } catch (err) {
    throw new EngineError('IO_ERROR', `repair of ${metaDir} failed: ${(err as Error).message}`, {
      cause: err,
    })
  }
}

/**
 * `Database.open` starts a new, empty database when the format record is absent; after a
 * repair that lost it, that would put an empty HEAD over what survived.
 */
async function assertFormatKept(metaDir: string, path: string): Promise<void> {
  const level = new ClassicLevel(metaDir, { keyEncoding: 'view', valueEncoding: 'view' })
  await level.open()
  const meta = createLevelMetaStore(level)
  try {
    if ((await meta.get('meta', FORMAT_KEY)) === undefined)
      throw new EngineError(
        'CONTENT_CORRUPT',
        `the repaired metadata of ${path} has no format record; nothing more was written. ` +
          'Restore the database from a backup or an export',
      )
  } finally {
    await meta.close()
  }
}
