import { checkMetaOps, guardConflict, isEngineError } from '@svcdb/engine'
import type { KeyOf, MetaGuard, MetaOp, MetaStore, RangeOptions, Space } from '@svcdb/engine'
import pg from 'pg'
import type { Pool, PoolClient, QueryConfig } from 'pg'
import { batchRows } from './batch-rows'
import { failedGuard, guardSlot, lockGuardedKeys } from './guarded-write'
import { keyBytes, keyOf, plainBytes } from './kv-keys'
import { createKvTable, kvTable } from './kv-table'
import { closedError, postgresError, sqlState } from './postgres-error'
import { commitChannel, createCommitWatch } from './commit-watch'
import type { CommitWatch } from './commit-watch'
import { checkPostgresOptions } from './postgres-meta-store-options'
import type { PostgresMetaStoreOptions } from './postgres-meta-store-options'
import { rangeQuery } from './range-sql'
import { acquireSchemaLock } from './schema-lock'
import type { SchemaLock } from './schema-lock'
import { snapshotRows } from './snapshot-rows'
import type { IterationHost, Lease, Row } from './snapshot-rows'

// A deadlock or serialisation failure rolled the whole batch back: trying again is safe.
const RETRYABLE = new Set(['40P01', '40001'])
const WRITE_ATTEMPTS = 3

/**
 * A {@link MetaStore} in PostgreSQL: one table `<schema>.kv (space, key, value)` with
 * `PRIMARY KEY (space, key)`, created with its schema when missing. Keys are `bytea` (text
 * keys as UTF-8), which PostgreSQL compares bytewise as LevelDB does. Every batch is one
 * transaction (an unguarded synced one a single statement); an iteration reads one snapshot (a `REPEATABLE READ`
 * transaction with a cursor). A guarded batch is one transaction that locks its guarded keys
 * (`FOR UPDATE`, or a placeholder row for an absent key) before comparing and writing, and
 * that notifies the schema's channel (`pg_notify`, delivered only if it commits) when it
 * writes: `watch()` follows those notifications over one `LISTEN` connection of its own. Fails with `INVALID_INPUT` for bad options and `IO_ERROR`
 * when the database cannot be reached; closing the store ends its connections. With
 * `exclusive: true` it fails with `LOCKED` while another store holds the schema, and its
 * batches fail with `LOCKED` once its lock is lost; with `member: true` it joins the nodes
 * sharing the schema and keeps exclusive openers out while it is open.
 *
 * @example
 * const meta = await createPostgresMetaStore({ connectionString: process.env.DATABASE_URL! })
 * const db = await Database.open({ meta })
 */
export async function createPostgresMetaStore(
  options: PostgresMetaStoreOptions,
): Promise<MetaStore> {
  const { connectionString, schema, poolSize, exclusive, member } = checkPostgresOptions(options)
  // The lock first: a refused open leaves nothing behind, not even the table.
  const lock =
    exclusive || member
      ? await acquireSchemaLock(connectionString, schema, member ? 'member' : 'exclusive')
      : undefined
  const pool = new pg.Pool({ connectionString, max: poolSize })
  // An idle connection that breaks is dropped by the pool; the next query reports it.
  pool.on('error', () => undefined)
  try {
    await createKvTable(pool, schema)
  } catch (err) {
    await pool.end().catch(() => undefined)
    await lock?.release()
    throw postgresError(`metadata open of schema "${schema}"`, err)
  }
  return postgresMetaStore(pool, schema, lock, createCommitWatch(connectionString, schema))
}

function postgresMetaStore(
  pool: Pool,
  schema: string,
  lock: SchemaLock | undefined,
  commits: CommitWatch,
): MetaStore {
  const table = kvTable(schema)
  const channel = commitChannel(schema)
  const leases = new Set<Lease>()
  const inFlight = new Set<Promise<unknown>>()
  let closed = false
  let closing: Promise<void> | undefined

  const assertOpen = (): void => {
    if (closed) throw closedError()
  }
  // Once closed, a connection the store ended itself is no failure to report as IO_ERROR.
  const wrap = (action: string, err: unknown) =>
    closed && !isEngineError(err) && sqlState(err) === undefined
      ? closedError(err)
      : postgresError(`metadata ${action}`, err)

  /** Runs `work` unless closed; `close()` waits for it. */
  async function run<T>(action: string, work: () => Promise<T>): Promise<T> {
    assertOpen()
    const pending = work()
    inFlight.add(pending)
    try {
      return await pending
    } catch (err) {
      throw wrap(action, err)
    } finally {
      inFlight.delete(pending)
    }
  }

  const host: IterationHost = {
    assertOpen,
    wrap,
    query(query) {
      return run('iteration', async () => {
        const { rows } = await pool.query<Row>({ ...query, rowMode: 'array' })
        return rows
      })
    },
    async lease() {
      const client = await run('iteration', () => pool.connect())
      let released = false
      const lease: Lease = {
        client,
        get released() {
          return released
        },
        release(destroy) {
          if (released) return
          released = true
          leases.delete(lease)
          client.release(destroy)
        },
      }
      leases.add(lease)
      if (closed) {
        lease.release(true)
        throw closedError()
      }
      return lease
    },
  }

  // Checked as late as is free: a lost lock must stop writes, but costs no round trip to see.
  const assertLocked = (): void => lock?.assertHeld()

  async function write(ops: readonly MetaOp[], sync: boolean): Promise<void> {
    const rows = batchRows(ops)
    const values = [rows.delSpaces, rows.delKeys, rows.putSpaces, rows.putKeys, rows.putValues]
    for (let attempt = 1; ; attempt++) {
      try {
        const query = { name: `svcdb-kv-write-${schema}`, text: table.write, values }
        assertLocked()
        if (sync) await pool.query(query)
        else await writeAsyncCommit(pool, query, assertLocked)
        return
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS || !RETRYABLE.has(sqlState(err) ?? '')) throw err
      }
    }
  }

  /**
   * A guarded batch: one transaction that locks the guarded keys (see `lockGuardedKeys`),
   * compares, and writes or rolls back with `CONFLICT`. The locks make the check and the
   * write atomic against every other writer of the table, in any process.
   */
  async function writeGuarded(
    ops: readonly MetaOp[],
    guards: readonly MetaGuard[],
    sync: boolean,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await inTransaction(pool, sync, async (client) => {
          const { values, placeholders } = await lockGuardedKeys(client, table.name, guards, ops)
          const failed = failedGuard(guards, values)
          if (failed !== undefined) throw guardConflict(failed, values.get(guardSlot(failed)))
          const rows = batchRows([...placeholders, ...ops])
          if (rows.delKeys.length + rows.putKeys.length > 0) {
            await client.query({
              name: `svcdb-kv-write-${schema}`,
              text: table.write,
              values: [rows.delSpaces, rows.delKeys, rows.putSpaces, rows.putKeys, rows.putValues],
            })
          }
          // Delivered only if this transaction commits: other nodes' watchers then look. Not for
          // a batch of guards alone, whose placeholder rows come and go with no change.
          if (ops.length > 0)
            await client.query({
              name: `svcdb-kv-notify-${schema}`,
              text: "SELECT pg_notify($1, '')",
              values: [channel],
            })
          assertLocked()
        })
        return
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS || !RETRYABLE.has(sqlState(err) ?? '')) throw err
      }
    }
  }

  function rows<S extends Space>(space: S, range: RangeOptions<KeyOf<S>>, withValues: boolean) {
    const query = rangeQuery(table.name, space, range, withValues)
    return snapshotRows(host, query, { withValues, limit: range.limit })
  }

  return {
    get(space, key) {
      return run('read', async () => {
        const { rows } = await pool.query<[Buffer]>({
          name: `svcdb-kv-get-${schema}`,
          text: table.get,
          values: [space, keyBytes(key)],
          rowMode: 'array',
        })
        return rows[0] === undefined ? undefined : plainBytes(rows[0][0])
      })
    },

    getMany(space, keys) {
      return run('read', async () => {
        if (keys.length === 0) return []
        const asked = keys.map((key) => keyBytes(key))
        const { rows } = await pool.query<[Buffer, Buffer]>({
          name: `svcdb-kv-get-many-${schema}`,
          text: table.getMany,
          values: [space, asked],
          rowMode: 'array',
        })
        const found = new Map(rows.map(([key, value]) => [key.toString('latin1'), value]))
        return asked.map((key) => {
          const value = found.get(key.toString('latin1'))
          return value === undefined ? undefined : plainBytes(value)
        })
      })
    },

    async batch(ops, options) {
      const guards = options.guards?.length ? options.guards : undefined
      checkMetaOps(ops, guards)
      assertOpen()
      assertLocked()
      await run('write', async () => {
        if (guards !== undefined) await writeGuarded(ops, guards, options.sync)
        else if (ops.length > 0) await write(ops, options.sync)
      })
    },

    iterate<S extends Space>(space: S, range: RangeOptions<KeyOf<S>> = {}) {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const [key, value] of rows(space, range, true))
            yield [keyOf(space, key), plainBytes(value as Buffer)] as [KeyOf<S>, Uint8Array]
        },
      }
    },

    keys<S extends Space>(space: S, range: RangeOptions<KeyOf<S>> = {}) {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const [key] of rows(space, range, false)) yield keyOf(space, key)
        },
      }
    },

    watch(listener) {
      assertOpen()
      return commits.add(listener)
    },

    close() {
      closing ??= (async () => {
        closed = true
        await commits.close()
        // Open iterations lose their connection: their next step fails with CLOSED.
        for (const lease of [...leases]) lease.release(true)
        await Promise.allSettled([...inFlight])
        for (const lease of [...leases]) lease.release(true)
        await pool.end()
        // Only now: no write of this store can run once another process may take the lock.
        await lock?.release()
      })()
      return closing
    },
  }
}

/**
 * Runs `work` in a transaction on a client of its own and commits (without waiting for the
 * WAL flush unless `sync`); rolls back when `work` throws. The client goes back to the pool
 * unless its ROLLBACK failed.
 */
async function inTransaction(
  pool: Pool,
  sync: boolean,
  work: (client: PoolClient) => Promise<void>,
): Promise<void> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query(sync ? 'BEGIN' : 'BEGIN; SET LOCAL synchronous_commit TO off')
    await work(client)
    await client.query('COMMIT')
  } catch (err) {
    await client.query('ROLLBACK').catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback))
    })
    throw err
  } finally {
    client.release(broken)
  }
}

/**
 * A write whose commit does not wait for the WAL flush (`sync: false`): a crash of the
 * server may lose it, never tear it. `beforeCommit` may throw to roll it back.
 */
async function writeAsyncCommit(
  pool: Pool,
  query: QueryConfig,
  beforeCommit: () => void,
): Promise<void> {
  const client = await pool.connect()
  let failed: Error | undefined
  try {
    await client.query('BEGIN; SET LOCAL synchronous_commit TO off')
    await client.query(query)
    beforeCommit()
    await client.query('COMMIT')
  } catch (err) {
    failed = err instanceof Error ? err : new Error(String(err))
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    // A client whose ROLLBACK may not have run is not handed to anyone else.
    client.release(failed)
  }
}
