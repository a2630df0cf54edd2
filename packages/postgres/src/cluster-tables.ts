import type { Pool } from 'pg'

/** `<schema>.lease_claims`: one row per claimed (job, slot). */
export function leaseClaimsTable(schema: string): string {
  return `"${schema}".lease_claims`
}

/** `<schema>.nodes`: one row per node that sent a heartbeat. */
export function nodesTable(schema: string): string {
  return `"${schema}".nodes`
}

const DDL = {
  // claim_id tells a claim from the takeover that replaced it, even on the same node.
  lease_claims: (schema: string) =>
    `CREATE TABLE IF NOT EXISTS ${leaseClaimsTable(schema)} (` +
    `job text NOT NULL, slot bigint NOT NULL, node text NOT NULL, claim_id text NOT NULL, ` +
    `lease_until timestamptz NOT NULL, done boolean NOT NULL DEFAULT false, ` +
    `PRIMARY KEY (job, slot))`,
  nodes: (schema: string) =>
    `CREATE TABLE IF NOT EXISTS ${nodesTable(schema)} (` +
    `id text PRIMARY KEY, url text, version text, last_seen timestamptz NOT NULL, ` +
    `offset_ms double precision NOT NULL)`,
} as const

/**
 * Creates the schema and `table` when missing. The advisory lock is the one the `kv` table's
 * creation takes, so nodes starting together never race on `CREATE ... IF NOT EXISTS` (which
 * can still fail on a concurrent create).
 */
export async function createClusterTable(
  pool: Pool,
  schema: string,
  table: keyof typeof DDL,
): Promise<void> {
  const client = await pool.connect()
  let failed: unknown
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`svcdb schema ${schema}`])
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    await client.query(DDL[table](schema))
    await client.query('COMMIT')
  } catch (err) {
    failed = err
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    client.release(failed instanceof Error ? failed : undefined)
  }
}
