import type { Pool } from 'pg'
import { createTableLocked } from './create-table'

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

/** Creates the schema and its table when missing (see {@link createTableLocked}). */
export async function createKvTable(pool: Pool, schema: string): Promise<void> {
  // bytea compares bytewise, as LevelDB's default comparator: one key encoding for both.
  await createTableLocked(
    pool,
    schema,
    `CREATE TABLE IF NOT EXISTS ${kvTable(schema).name} (` +
      `space text NOT NULL, key bytea NOT NULL, value bytea NOT NULL, ` +
      `PRIMARY KEY (space, key))`,
  )
}
