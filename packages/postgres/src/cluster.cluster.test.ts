import { runClusterConformance } from '@svcdb/engine/testing'
import { describe, expect, it } from 'vitest'
import { createPostgresCluster } from './postgres-cluster'
import { adminClient, databaseUrl, testSchemas } from './test-schema'

const admin = adminClient()
const newSchema = testSchemas('svcdb_cluster')

runClusterConformance(
  'postgres',
  async ({ staleAfterMs }) => {
    const schema = newSchema()
    const connectionString = databaseUrl()
    // Two nodes, two pools, starting together over one fresh schema.
    const [a, b] = await Promise.all([
      createPostgresCluster({ connectionString, schema, nodeId: 'node-a', staleAfterMs }),
      createPostgresCluster({ connectionString, schema, nodeId: 'node-b', staleAfterMs }),
    ])
    return {
      a,
      b,
      async close() {
        await a.close()
        await b.close()
      },
    }
  },
  { multiNode: true },
)

describe('createPostgresCluster', () => {
  it('stores heartbeats in the nodes table, stamped by the database', async () => {
    const schema = newSchema()
    const cluster = await createPostgresCluster({
      connectionString: databaseUrl(),
      schema,
      nodeId: 'n1',
    })
    try {
      await cluster.heartbeat({ url: 'http://n1:8080', version: '0.1.0' })
      const { rows } = await admin.query(
        `SELECT id, url, version, abs(extract(epoch FROM clock_timestamp() - last_seen)) < 60 AS recent,
                abs(offset_ms) < 5000 AS near FROM "${schema}".nodes`,
      )
      expect(rows).toEqual([
        { id: 'n1', url: 'http://n1:8080', version: '0.1.0', recent: true, near: true },
      ])
    } finally {
      await cluster.close()
    }
  })

  it('keeps one row per node id across restarts', async () => {
    const schema = newSchema()
    const options = { connectionString: databaseUrl(), schema, nodeId: 'n1' }
    const first = await createPostgresCluster(options)
    await first.heartbeat({ url: 'http://old' })
    await first.close()
    const second = await createPostgresCluster(options)
    try {
      await second.heartbeat({ url: 'http://new' })
      expect((await second.nodes()).map((node) => [node.id, node.url])).toEqual([
        ['n1', 'http://new'],
      ])
    } finally {
      await second.close()
    }
  })

  it('refuses bad options with INVALID_INPUT and an unreachable server with IO_ERROR', async () => {
    const connectionString = databaseUrl()
    await expect(createPostgresCluster({ connectionString, nodeId: '' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(
      createPostgresCluster({ connectionString, nodeId: 'n', staleAfterMs: -1 }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(
      createPostgresCluster({
        connectionString: 'postgres://nobody@127.0.0.1:1/none',
        nodeId: 'n',
      }),
    ).rejects.toMatchObject({ code: 'IO_ERROR' })
  })
})
