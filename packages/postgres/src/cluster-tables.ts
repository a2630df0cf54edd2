import type { Pool } from 'pg'
import { createTableLocked } from './create-table'

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

/** Creates the schema and `table` when missing (see {@link createTableLocked}). */
export async function createClusterTable(
  pool: Pool,
  schema: string,
  table: keyof typeof DDL,
): Promise<void> {
  await createTableLocked(pool, schema, DDL[table](schema))
}
