import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'

/** A real on-disk database in a fresh temp dir. */
export interface TempDatabase {
  readonly path: string
  /** The database currently open (a new one after {@link TempDatabase.reopen}). */
  readonly db: Database
  /** Closes the database and opens the same directory again. */
  reopen(): Promise<Database>
  /** Closes the database and removes the directory. */
  destroy(): Promise<void>
}

/**
 * Opens a {@link Database} on a new temp dir named `prefix…`; the caller must `destroy()` it.
 */
export async function openTempDatabase(prefix = 'svcdb-test-'): Promise<TempDatabase> {
  const path = await mkdtemp(join(tmpdir(), prefix))
  let db = await Database.open({ path })
  return {
    path,
    get db() {
      return db
    },
    async reopen() {
      await db.close()
      db = await Database.open({ path })
      return db
    },
    async destroy() {
      await db.close()
      await rm(path, { recursive: true, force: true })
    },
  }
}
