import type { MetaStore } from '@svcdb/engine'
import { runMetaStoreConformance } from '@svcdb/engine/testing'
import type { MetaStoreFixture } from '@svcdb/engine/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresMetaStore } from './postgres-meta-store'
import { databaseUrl, dropSchemas, unique } from './test-schema'

/** A fixture on a schema of its own, dropped with everything in it by `close()`. */
async function fixture(
  schema = unique('svcdb_test'),
): Promise<MetaStoreFixture & { schema: string }> {
  const connectionString = databaseUrl()
  const store = await createPostgresMetaStore({ connectionString, schema })
  const peers: MetaStore[] = []
  return {
    store,
    schema,
    async reopen() {
      await store.close()
      return fixture(schema)
    },
    async close() {
      await store.close()
      for (const peer of peers) await peer.close()
      await dropSchemas([schema])
    },
    async peer() {
      const peer = await createPostgresMetaStore({ connectionString, schema })
      peers.push(peer)
      return peer
    },
  }
}

runMetaStoreConformance('postgres', () => fixture(), { snapshots: true, watch: true })

describe('createPostgresMetaStore on a server', () => {
  const open: MetaStoreFixture[] = []
  afterAll(async () => {
    for (const f of open) await f.close()
  })
  const schemaStore = async () => {
    const f = await fixture()
    open.push(f)
    return f
  }
  const utf8 = (text: string) => new TextEncoder().encode(text)

  it('gives an abandoned iteration’s connection back, so a pool of one serves on', async () => {
    const { store, schema } = await schemaStore()
    await store.batch(
      Array.from({ length: 3000 }, (_, i) => ({
        type: 'put' as const,
        space: 'log' as const,
        key: `k${String(i).padStart(5, '0')}`,
        value: utf8('v'),
      })),
      { sync: true },
    )
    const one = await createPostgresMetaStore({
      connectionString: databaseUrl(),
      schema,
      poolSize: 1,
    })
    try {
      for (let round = 0; round < 3; round++) {
        for await (const key of one.keys('log')) if (key === 'k01500') break
        for await (const [key] of one.iterate('log', { gt: 'k02990' }))
          expect(key > 'k02990').toBe(true)
        expect(await one.get('log', 'k00001')).toEqual(utf8('v'))
      }
    } finally {
      await one.close()
    }
  })

  it('applies every batch of two stores writing one schema at once', async () => {
    const { store: a, schema } = await schemaStore()
    const b = await createPostgresMetaStore({ connectionString: databaseUrl(), schema })
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).batch(
            [
              { type: 'put', space: 'ref', key: 'shared', value: utf8(String(i)) },
              { type: 'put', space: 'ref', key: `own${i}`, value: utf8(String(i)) },
            ],
            { sync: i % 3 === 0 },
          ),
        ),
      )
      const keys: string[] = []
      for await (const key of b.keys('ref')) keys.push(key)
      expect(keys).toHaveLength(21)
      expect(await a.get('ref', 'shared')).toBeDefined()
    } finally {
      await b.close()
    }
  })

  it('refuses a batch naming no space with INVALID_INPUT', async () => {
    const { store } = await schemaStore()
    const bad = [{ type: 'put', space: 'nowhere', key: 'x', value: utf8('x') }]
    await expect(store.batch(bad as never, { sync: true })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })
})
