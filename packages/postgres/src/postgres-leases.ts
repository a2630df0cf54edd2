import { randomUUID } from 'node:crypto'
import { checkClaimInput, checkLockInput, isEngineError } from '@svcdb/engine'
import type { LeaseClaim, Leases, LockResult } from '@svcdb/engine'
import pg from 'pg'
import { clusterClosedError, postgresError } from './postgres-error'
import { checkLeasesOptions } from './cluster-options'
import type { PostgresLeasesOptions } from './cluster-options'
import { createClusterTable, leaseClaimsTable } from './cluster-tables'
import { tryLeaseLock } from './lease-lock'
import type { HeldLeaseLock } from './lease-lock'

/**
 * {@link Leases} for nodes sharing one PostgreSQL database. Claims are rows of
 * `<schema>.lease_claims (job, slot, node, claim_id, lease_until, done)`, created when
 * missing; one upsert claims a (job, slot): it inserts the row, or takes over an unfinished
 * row whose lease expired (`ON CONFLICT ... DO UPDATE ... WHERE NOT done AND lease_until <
 * clock_timestamp()`), so of concurrent claimers exactly one gets a row back. Expiry is on
 * the database's clock, never a node's. At most once an hour, a claim also deletes claims
 * whose lease ended over 7 days ago (at most 10,000 rows at a time), so the table does not
 * grow with every slot ever claimed. `withLock` takes `pg_try_advisory_lock` on a
 * connection of its own per held lock, ended when the job settles: the lock dies with the
 * process or the connection. Fails with `INVALID_INPUT` for bad options and `IO_ERROR` when
 * the database cannot be reached.
 *
 * @example
 * const leases = await createPostgresLeases({ connectionString: process.env.DATABASE_URL! })
 * await leases.withLock('gc', (signal) => db.gc({ signal }))
 */
export async function createPostgresLeases(options: PostgresLeasesOptions): Promise<Leases> {
  const { connectionString, schema, nodeId, poolSize } = checkLeasesOptions(options)
  const pool = new pg.Pool({ connectionString, max: poolSize })
  // An idle connection that breaks is dropped by the pool; the next query reports it.
  pool.on('error', () => undefined)
  try {
    await createClusterTable(pool, schema, 'lease_claims')
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw postgresError(`open of leases in schema "${schema}"`, err)
  }
  return postgresLeases(pool, connectionString, schema, nodeId)
}

/** Claims whose lease ended this long ago are forgotten (see `Leases.claim`). */
const CLAIM_RETENTION_DAYS = 7
/** How often one Leases object prunes forgotten claims, piggybacked on a claim. */
const PRUNE_INTERVAL_MS = 60 * 60_000
/** The most rows one prune deletes: the rest wait for the next, so a prune stays short. */
const PRUNE_BATCH = 10_000

function postgresLeases(
  pool: pg.Pool,
  connectionString: string,
  schema: string,
  nodeId: string,
): Leases {
  const table = leaseClaimsTable(schema)
  const claimSql =
    `INSERT INTO ${table} AS c (job, slot, node, claim_id, lease_until) ` +
    `VALUES ($1, $2, $3, $4, clock_timestamp() + $5::float8 * interval '1 millisecond') ` +
    `ON CONFLICT (job, slot) DO UPDATE SET node = excluded.node, claim_id = excluded.claim_id, ` +
    `lease_until = excluded.lease_until WHERE NOT c.done AND c.lease_until < clock_timestamp() ` +
    `RETURNING c.claim_id`
  const finishSql =
    `UPDATE ${table} SET done = true WHERE job = $1 AND slot = $2 AND claim_id = $3 ` +
    `RETURNING claim_id`
  // lease_until is at least the claim's time, so this keeps every claim for 7 days.
  const pruneSql =
    `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} ` +
    `WHERE lease_until < clock_timestamp() - interval '${CLAIM_RETENTION_DAYS} days' ` +
    `LIMIT ${PRUNE_BATCH}))`
  let lastPrune = -Infinity
  const locks = new Set<HeldLeaseLock>()
  let closed = false
  let closing: Promise<void> | undefined

  const assertOpen = (): void => {
    if (closed) throw clusterClosedError('leases')
  }
  const query = async (action: string, sql: string, values: unknown[]) => {
    assertOpen()
    try {
      return (await pool.query(sql, values)).rowCount ?? 0
    } catch (err) {
      throw closed && !isEngineError(err)
        ? clusterClosedError('leases')
        : postgresError(action, err)
    }
  }

  return {
    async claim(job, slot, ttlMs) {
      assertOpen()
      checkClaimInput(job, slot, ttlMs)
      const claimId = randomUUID()
      const won = await query(`lease claim of "${job}" slot ${slot}`, claimSql, [
        job,
        slot,
        nodeId,
        claimId,
        ttlMs,
      ])
      if (Date.now() - lastPrune >= PRUNE_INTERVAL_MS) {
        lastPrune = Date.now()
        // Housekeeping: a failure here must not fail the claim; the next hour tries again.
        await pool.query(pruneSql).catch(() => undefined)
      }
      if (won === 0) return undefined
      let finished: Promise<boolean> | undefined
      const claim: LeaseClaim = {
        job,
        slot,
        finish() {
          finished ??= query(`finish of lease "${job}" slot ${slot}`, finishSql, [
            job,
            slot,
            claimId,
          ]).then((rows) => rows === 1)
          return finished
        },
      }
      return claim
    },

    async withLock<T>(
      name: string,
      fn: (signal: AbortSignal) => Promise<T>,
    ): Promise<LockResult<T>> {
      assertOpen()
      checkLockInput(name, fn)
      let lock: HeldLeaseLock | undefined
      try {
        lock = await tryLeaseLock(connectionString, schema, name)
      } catch (err) {
        throw postgresError(`lock "${name}"`, err)
      }
      if (lock === undefined) return { ran: false }
      if (closed) {
        await lock.release()
        throw clusterClosedError('leases')
      }
      locks.add(lock)
      try {
        return { ran: true, value: await fn(lock.signal) }
      } finally {
        locks.delete(lock)
        await lock.release()
      }
    },

    close() {
      closed = true
      closing ??= (async () => {
        await Promise.all([...locks].map((lock) => lock.release()))
        await pool.end().catch(() => undefined)
      })()
      return closing
    },
  }
}
