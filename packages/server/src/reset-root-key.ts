import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { createAuth } from '@svcdb/auth'
import type { ResetRootKeyResult } from '@svcdb/auth'
import { Database, isEngineError } from '@svcdb/engine'
import { createEngineIdentityStore } from './adapters'
import type { ResetRootKeyConfig } from './config/parse-reset-root-key-args'
import { ServerError } from './errors/server-error'
import { openDatabase } from './services/open-database'

// A database directory keeps its LevelDB metadata in `meta/` (engine layout); checking for it
// first keeps a mistyped path from becoming a new, empty database.
async function requireDatabase(path: string, what: string): Promise<void> {
  const meta = await stat(join(path, 'meta')).catch(() => undefined)
  if (meta?.isDirectory() !== true) {
    throw new ServerError('NOT_FOUND', `no svcdb database at ${path} (${what}); nothing to reset`)
  }
}

async function openHeld(path: string, what: string): Promise<Database> {
  await requireDatabase(path, what)
  try {
    return await Database.open({ path })
  } catch (err) {
    // LevelDB's lock is held for as long as a server has the directory open.
    if (isEngineError(err, 'LOCKED')) {
      throw new ServerError(
        'CONFLICT',
        `the ${what} ${path} is in use by a running server; stop it first`,
        { cause: err },
      )
    }
    throw err
  }
}

/**
 * Offline recovery of a lost root key (`svcdb-server reset-root-key`): with no server holding
 * the data directory (and, for `file://PATH`, the identity database), mints a new root key and,
 * with `revokeOthers`, revokes every other key of the root user. No other key, user or file is
 * changed. The data directory (or, with `--meta`, the database in PostgreSQL) is opened even
 * in `file` mode, so a server cannot start on it meanwhile.
 *
 * @throws {ServerError} `CONFLICT` while a server holds a directory; `NOT_FOUND` when a path
 * holds no database.
 * @example
 * const { rootApiKey } = await resetRootKeyOffline({
 *   dataDir: './data', storage: { kind: 'embedded' }, auth: { kind: 'self-contained' },
 *   revokeOthers: false,
 * })
 */
export async function resetRootKeyOffline(config: ResetRootKeyConfig): Promise<ResetRootKeyResult> {
  const { db, close } = await openMain(config)
  try {
    if (config.auth.kind === 'self-contained') return await reset(db, config)
    const identity = await openHeld(config.auth.path, 'identity database')
    try {
      return await reset(identity, config)
    } finally {
      await identity.close()
    }
  } finally {
    await close()
  }
}

/** The database the server runs on: the data directory, or PostgreSQL (and S3) when shared. */
async function openMain(
  config: ResetRootKeyConfig,
): Promise<{ db: Database; close(): Promise<void> }> {
  if (config.storage.kind === 'embedded') {
    const db = await openHeld(config.dataDir, 'data directory')
    return { db, close: () => db.close() }
  }
  try {
    return await openDatabase(config.storage, config.dataDir, { nodeId: 0, exclusive: true })
  } catch (err) {
    // The schema's lock is held for as long as a server has the database open.
    if (isEngineError(err, 'LOCKED')) {
      throw new ServerError(
        'CONFLICT',
        'the database in PostgreSQL (--meta) is in use by a running server; stop it first',
        { cause: err },
      )
    }
    throw err
  }
}

const reset = (db: Database, config: ResetRootKeyConfig) =>
  createAuth({ store: createEngineIdentityStore(db), mode: config.auth }).resetRootKey({
    revokeOthers: config.revokeOthers,
  })
