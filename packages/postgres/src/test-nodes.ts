import { Database } from '@svcdb/engine'
import type { MetaStore } from '@svcdb/engine'
import { createPostgresMetaStore } from './postgres-meta-store'
import { databaseUrl } from './test-schema'

// Test support for the *.cluster.test.ts files: not exported from the package.

/** A metadata store (a pool of its own) over `schema`. */
export function openStore(schema: string): Promise<MetaStore> {
  return createPostgresMetaStore({ connectionString: databaseUrl(), schema })
}

/**
 * Two nodes over `schema`: two shared `Database`s, each on a store of its own, opened
 * together so that creating the database races (one does, the other opens what it made).
 * `bPollMs` is node b's `sharedPollMs`.
 */
export async function openSharedNodes(
  schema: string,
  bPollMs?: number,
): Promise<[Database, Database]> {
  const [metaA, metaB] = [await openStore(schema), await openStore(schema)]
  return Promise.all([
    Database.open({ meta: metaA, shared: true }),
    Database.open({
      meta: metaB,
      shared: true,
      ...(bPollMs === undefined ? {} : { sharedPollMs: bPollMs }),
    }),
  ])
}
