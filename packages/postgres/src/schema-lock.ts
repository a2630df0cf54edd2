import { EngineError } from '@svcdb/engine'
import { postgresError } from './postgres-error'
import { trySessionLock } from './session-lock'
import type { SessionLock } from './session-lock'

/**
 * A session-level advisory lock on one schema, held on a connection of its own (outside the
 * pool) from {@link acquireSchemaLock} until {@link SchemaLock.release}.
 */
export interface SchemaLock {
  /**
   * Throws `LOCKED` once the lock's connection has ended (the server restarted, the backend
   * was killed): the lock went with it, and another process may hold it now. Costs no round
   * trip: the connection's `error` and `end` events flip a flag.
   */
  assertHeld(): void
  /** Ends the connection, which releases the lock. Idempotent. */
  release(): Promise<void>
}

// Two int4 keys: 64 bits of the schema name, and a key space apart from one-key advisory locks
// (such as the transaction lock that serialises creating the table).
const TRY_LOCK = `SELECT pg_try_advisory_lock(hashtext('svcdb:' || $1), hashtext($1)) AS locked`
// The same lock, taken in shared mode by each node of a cluster.
const TRY_SHARED_LOCK = `SELECT pg_try_advisory_lock_shared(hashtext('svcdb:' || $1), hashtext($1)) AS locked`

/**
 * Takes the lock on `schema`, exclusive or as one of its `member`s, or fails with `LOCKED`
 * when a session holds it in the other way (or exclusively) (`IO_ERROR` when the server
 * cannot be reached). On failure no connection is left open. The lock is never taken again by
 * this object: once lost, it stays lost; a member's loss is not reported by `assertHeld`.
 */
export async function acquireSchemaLock(
  connectionString: string,
  schema: string,
  mode: 'exclusive' | 'member' = 'exclusive',
): Promise<SchemaLock> {
  let lost: string | undefined
  let lock: SessionLock | undefined
  try {
    const sql = mode === 'member' ? TRY_SHARED_LOCK : TRY_LOCK
    lock = await trySessionLock(connectionString, sql, [schema], (reason) => {
      lost ??= reason
    })
  } catch (err) {
    throw postgresError(`metadata lock of schema "${schema}"`, err)
  }
  if (lock === undefined) {
    throw new EngineError(
      'LOCKED',
      mode === 'member'
        ? `the database in PostgreSQL schema "${schema}" is open in a svcdb process that ` +
            'excludes others (reset-root-key, or a server not joining as a cluster node); ' +
            'wait until it ends'
        : `the database in PostgreSQL schema "${schema}" is open in another svcdb process; ` +
            'stop the servers using it first',
    )
  }
  const held = lock
  return {
    assertHeld() {
      if (mode === 'exclusive' && lost !== undefined)
        throw new EngineError(
          'LOCKED',
          `the lock on PostgreSQL schema "${schema}" was lost (${lost}); another svcdb ` +
            'process may have the database now, so this one writes no more: close it and open again',
        )
    },
    release: () => held.release(),
  }
}
