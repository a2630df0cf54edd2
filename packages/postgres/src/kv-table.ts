import type { Pool } from 'pg'

/** The statements of one schema's `kv` table. */
export interface KvTable {
  /** The quoted, schema-qualified table name. */
  readonly name: string
  /** `$1` space, `$2` key → `value`. */
  readonly get: string
  /** `$1` space, `$2` keys → `key, value` of those present. */
  readonly getMany: string
  /**
   * One atomic statement: deletes `($1 spaces, $2 keys)` and upserts
   * `($3 spaces, $4 keys, $5 values)`. The two never name the same row.
   */
  readonly write: string
}

/** The statements over `<schema>.kv` (the schema a checked plain identifier). */
export function kvTable(schema: string): KvTable {
  const name = `"${schema}".kv`
  return {
    name,
    get: `SELECT value FROM ${name} WHERE space = $1 AND key = $2`,
    getMany: `SELECT key, value FROM ${name} WHERE space = $1 AND key = ANY($2::bytea[])`,
    write:
      `WITH gone AS (DELETE FROM ${name} AS t USING unnest($1::text[], $2::bytea[]) AS d(space, key) ` +
      `WHERE t.space = d.space AND t.key = d.key) ` +
      `INSERT INTO ${name} (space, key, value) ` +
      `SELECT * FROM unnest($3::text[], $4::bytea[], $5::bytea[]) ` +
      `ON CONFLICT (space, key) DO UPDATE SET value = excluded.value`,
  }
}

/**
 * Creates the schema and its table when missing. An advisory lock serialises nodes starting
 * together: `IF NOT EXISTS` alone can still fail on a concurrent create.
 */
export async function createKvTable(pool: Pool, schema: string): Promise<void> {
  const { name } = kvTable(schema)
  const client = await pool.connect()
  let failed: unknown
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`svcdb schema ${schema}`])
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    // bytea compares bytewise, as LevelDB's default comparator: one key encoding for both.
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${name} (` +
        `space text NOT NULL, key bytea NOT NULL, value bytea NOT NULL, ` +
        `PRIMARY KEY (space, key))`,
    )
    await client.query('COMMIT')
  } catch (err) {
    failed = err
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    client.release(failed instanceof Error ? failed : undefined)
  }
}
