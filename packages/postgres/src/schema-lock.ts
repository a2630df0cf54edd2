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

/**
 * Takes the exclusive lock on `schema`, or fails with `LOCKED` when another session holds it
 * (`IO_ERROR` when the server cannot be reached). On failure no connection is left open. The
 * lock is never taken again by this object: once lost, it stays lost.
 */
export async function acquireSchemaLock(
  connectionString: string,
  schema: string,
): Promise<SchemaLock> {
  let lost: string | undefined
  let lock: SessionLock | undefined
  try {
    lock = await trySessionLock(connectionString, TRY_LOCK, [schema], (reason) => {
      lost ??= reason
    })
  } catch (err) {
    throw postgresError(`metadata lock of schema "${schema}"`, err)
  }
  if (lock === undefined) {
    throw new EngineError(
      'LOCKED',
      `the database in PostgreSQL schema "${schema}" is open in another svcdb process; ` +
        'one server per database until svcdb servers run as a cluster',
    )
  }
  const held = lock
  return {
    assertHeld() {
      if (lost !== undefined)
        throw new EngineError(
          'LOCKED',
          `the lock on PostgreSQL schema "${schema}" was lost (${lost}); another svcdb ` +
            'process may have the database now, so this one writes no more: close it and open again',
        )
    },
    release: () => held.release(),
  }
}
