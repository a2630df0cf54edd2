import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'

// Test support for the *.cluster.test.ts files: not exported from the package.

/** `DATABASE_URL` (printed by `scripts/dev-services.sh up`); throws when it is not set. */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL
  if (url === undefined || url === '')
    throw new Error('DATABASE_URL is not set: eval "$(scripts/dev-services.sh up)" first')
  return url
}

/** The URL with an `application_name` of its own, so a test can find a node's backends. */
export function namedUrl(name: string): string {
  const url = new URL(databaseUrl())
  url.searchParams.set('application_name', name)
  return url.toString()
}

/** `prefix` and 12 random hex digits: a name no other test or run uses. */
export function unique(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`
}

/** Runs `work` on a connection of its own, ended after. */
export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Drops each schema with everything in it. */
export async function dropSchemas(schemas: Iterable<string>): Promise<void> {
  await withAdmin(async (client) => {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  })
}

/**
 * Fresh schemas for the calling suite (or file): each call of the function returned names a
 * new one, `<prefix>_<random>`, and all of them are dropped after the suite's tests.
 */
export function testSchemas(prefix = 'svcdb_test'): () => string {
  const schemas: string[] = []
  afterAll(() => dropSchemas(schemas.splice(0)))
  return () => {
    const schema = unique(prefix)
    schemas.push(schema)
    return schema
  }
}

/**
 * A connection for the calling suite's own queries, connected before its tests and ended
 * after them.
 */
export function adminClient(): pg.Client {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  beforeAll(async () => {
    databaseUrl()
    await client.connect()
  })
  afterAll(() => client.end())
  return client
}
