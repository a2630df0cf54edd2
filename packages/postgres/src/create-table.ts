import type { Pool } from 'pg'

/**
 * Creates `schema` and runs `ddl` (a `CREATE TABLE IF NOT EXISTS` in it) in one transaction.
 * Every table takes the same advisory lock, so nodes starting together never race on
 * `CREATE ... IF NOT EXISTS` (which can still fail on a concurrent create).
 */
export async function createTableLocked(pool: Pool, schema: string, ddl: string): Promise<void> {
  const client = await pool.connect()
  let failed: unknown
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`svcdb schema ${schema}`])
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    await client.query(ddl)
    await client.query('COMMIT')
  } catch (err) {
    failed = err
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    client.release(failed instanceof Error ? failed : undefined)
  }
}
