import { checkHeartbeatInfo, isEngineError } from '@svcdb/engine'
import type { Cluster, NodeInfo } from '@svcdb/engine'
import pg from 'pg'
import { measureClockOffset } from './cluster-clock-offset'
import { clusterClosedError, postgresError } from './postgres-error'
import { checkClusterOptions } from './cluster-options'
import type { PostgresClusterOptions } from './cluster-options'
import { createClusterTable, nodesTable } from './cluster-tables'

interface NodeRow {
  id: string
  url: string | null
  version: string | null
  last_seen_ms: number
  offset_ms: number
  alive: boolean
}

/**
 * The {@link Cluster} of nodes sharing one PostgreSQL database: membership in
 * `<schema>.nodes (id, url, version, last_seen, offset_ms)`, created when missing. The shared
 * clock is the database's `clock_timestamp()`: each heartbeat estimates this node's offset
 * against it NTP-style (the round trip's midpoint) and stores it with `last_seen`, stamped by
 * the database; `now()` is the process clock plus that offset, so it costs no round trip.
 * Liveness is judged on the database's clock too. Fails with `INVALID_INPUT` for bad options
 * and `IO_ERROR` when the database cannot be reached.
 *
 * @example
 * const cluster = await createPostgresCluster({ connectionString, nodeId: 'node-1' })
 * setInterval(() => void cluster.heartbeat({ url: 'http://10.0.0.5:8080' }), 10_000)
 */
export async function createPostgresCluster(options: PostgresClusterOptions): Promise<Cluster> {
  const { connectionString, schema, nodeId, poolSize, staleAfterMs } = checkClusterOptions(options)
  const pool = new pg.Pool({ connectionString, max: poolSize })
  // An idle connection that breaks is dropped by the pool; the next query reports it.
  pool.on('error', () => undefined)
  try {
    await createClusterTable(pool, schema, 'nodes')
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw postgresError(`open of the cluster in schema "${schema}"`, err)
  }
  return postgresCluster(pool, schema, nodeId, staleAfterMs)
}

function postgresCluster(
  pool: pg.Pool,
  schema: string,
  nodeId: string,
  staleAfterMs: number,
): Cluster {
  const table = nodesTable(schema)
  const heartbeatSql =
    `INSERT INTO ${table} AS n (id, url, version, last_seen, offset_ms) ` +
    `VALUES ($1, $2, $3, clock_timestamp(), $4) ON CONFLICT (id) DO UPDATE SET ` +
    `url = COALESCE(excluded.url, n.url), version = COALESCE(excluded.version, n.version), ` +
    `last_seen = excluded.last_seen, offset_ms = excluded.offset_ms`
  const nodesSql =
    `SELECT id, url, version, (extract(epoch FROM last_seen) * 1000)::float8 AS last_seen_ms, ` +
    `offset_ms, clock_timestamp() - last_seen <= $1::float8 * interval '1 millisecond' AS alive ` +
    `FROM ${table} ORDER BY id COLLATE "C"`
  let offsetMs: number | undefined
  let measuring: Promise<number> | undefined
  let latest = -Infinity
  let closed = false
  let closing: Promise<void> | undefined

  const assertOpen = (): void => {
    if (closed) throw clusterClosedError('cluster')
  }
  async function run<T>(action: string, work: () => Promise<T>): Promise<T> {
    assertOpen()
    try {
      return await work()
    } catch (err) {
      throw closed && !isEngineError(err)
        ? clusterClosedError('cluster')
        : postgresError(action, err)
    }
  }
  // Concurrent callers share one measurement.
  const measure = (): Promise<number> => {
    measuring ??= measureClockOffset(pool)
      .then(({ offsetMs: measured }) => {
        offsetMs = measured
        return measured
      })
      .finally(() => {
        measuring = undefined
      })
    return measuring
  }

  return {
    nodeId,
    heartbeat(info) {
      return run(`heartbeat of node "${nodeId}"`, async () => {
        checkHeartbeatInfo(info)
        const measured = await measure()
        await pool.query(heartbeatSql, [nodeId, info?.url ?? null, info?.version ?? null, measured])
      })
    },
    nodes() {
      return run('listing of nodes', async () => {
        const { rows } = await pool.query<NodeRow>(nodesSql, [staleAfterMs])
        return rows.map((row): NodeInfo => ({
          id: row.id,
          url: row.url ?? undefined,
          version: row.version ?? undefined,
          lastSeen: row.last_seen_ms,
          offsetMs: row.offset_ms,
          alive: row.alive,
        }))
      })
    },
    now() {
      return run('clock reading', async () => {
        const offset = offsetMs ?? (await measure())
        // A new estimate may be lower than the last: the shared clock must not go back.
        latest = Math.max(latest, Date.now() + offset)
        return latest
      })
    },
    close() {
      closed = true
      closing ??= pool.end().catch(() => undefined)
      return closing
    },
  }
}
