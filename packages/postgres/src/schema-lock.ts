import { EngineError } from '@svcdb/engine'
import pg from 'pg'
import { postgresError } from './postgres-error'

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
// PostgreSQL 14+ may end idle sessions; this one is idle by design and must outlive the store.
const KEEP_IDLE_SESSION = `SELECT set_config(name, '0', false) FROM pg_settings WHERE name = 'idle_session_timeout'`

/**
 * Takes the exclusive lock on `schema`, or fails with `LOCKED` when another session holds it
 * (`IO_ERROR` when the server cannot be reached). On failure no connection is left open. The
 * lock is never taken again by this object: once lost, it stays lost.
 */
export async function acquireSchemaLock(
  connectionString: string,
  schema: string,
): Promise<SchemaLock> {
  // Keepalive makes a connection that silently vanished end, so its loss is noticed.
  const client = new pg.Client({ connectionString, keepAlive: true })
  let lost: string | undefined
  let released = false
  const lose = (reason: string) => {
    if (!released) lost ??= reason
  }
  // Without a listener an 'error' on an idle client would crash the process.
  client.on('error', (err) => lose(err.message))
  client.on('end', () => lose('its connection ended'))

  let locked: boolean
  try {
    await client.connect()
    await client.query(KEEP_IDLE_SESSION)
    const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK, [schema])
    locked = rows[0]?.locked === true
  } catch (err) {
    released = true
    await client.end().catch(() => undefined)
    throw postgresError(`lock of schema "${schema}"`, err)
  }
  if (!locked) {
    released = true
    await client.end().catch(() => undefined)
    throw new EngineError(
      'LOCKED',
      `the database in PostgreSQL schema "${schema}" is open in another svcdb process; ` +
        'one node per database until multi-node support lands',
    )
  }

  let releasing: Promise<void> | undefined
  return {
    assertHeld() {
      if (lost !== undefined)
        throw new EngineError(
          'LOCKED',
          `the lock on PostgreSQL schema "${schema}" was lost (${lost}); another svcdb ` +
            'process may have the database now, so this one writes no more: close it and open again',
        )
    },
    release() {
      released = true
      releasing ??= client.end().catch(() => undefined)
      return releasing
    },
  }
}
