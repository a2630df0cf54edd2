import { hostname } from 'node:os'
import { checkNodeId, checkStaleAfterMs, DEFAULT_STALE_AFTER_MS, EngineError } from '@svcdb/engine'
import { checkPostgresOptions } from './postgres-meta-store-options'

/** Options of {@link createPostgresLeases}. */
export interface PostgresLeasesOptions {
  /** A libpq connection string: `postgres://user:password@host:port/database`. */
  connectionString: string
  /**
   * The schema holding the `lease_claims` table (default `svcdb`), created when missing; the
   * same plain lowercase identifier as the metadata store's. Locks are scoped to it too.
   */
  schema?: string
  /**
   * The claimant recorded in `lease_claims.node`, for operators (default
   * `<hostname>:<pid>`); a claim's identity is its own random id, not this.
   */
  nodeId?: string
  /** Pooled connections for claims (default 4). Each held lock has a connection of its own. */
  poolSize?: number
}

/** Options of {@link createPostgresCluster}. */
export interface PostgresClusterOptions {
  /** A libpq connection string: `postgres://user:password@host:port/database`. */
  connectionString: string
  /** The schema holding the `nodes` table (default `svcdb`), created when missing. */
  schema?: string
  /** This node's id, unique in the cluster (a stable name survives restarts: one row). */
  nodeId: string
  /** How long after its latest heartbeat a node counts as not alive (default 30 s). */
  staleAfterMs?: number
  /** Pooled connections (default 2). */
  poolSize?: number
}

/** The checked common options. */
export interface CheckedClusterOptions {
  readonly connectionString: string
  readonly schema: string
  readonly nodeId: string
  readonly poolSize: number
  readonly staleAfterMs: number
}

/** Checks `options` (`INVALID_INPUT` naming the bad one) and fills in the defaults. */
export function checkLeasesOptions(options: PostgresLeasesOptions): CheckedClusterOptions {
  const { nodeId = `${hostname()}:${process.pid}`, poolSize = 4 } = options
  return checkCommon({ ...options, nodeId, poolSize, staleAfterMs: DEFAULT_STALE_AFTER_MS })
}

/** Checks `options` (`INVALID_INPUT` naming the bad one) and fills in the defaults. */
export function checkClusterOptions(options: PostgresClusterOptions): CheckedClusterOptions {
  const { poolSize = 2, staleAfterMs = DEFAULT_STALE_AFTER_MS } = options
  return checkCommon({ ...options, poolSize, staleAfterMs })
}

function checkCommon(options: {
  connectionString: string
  schema?: string
  nodeId: string
  poolSize: number
  staleAfterMs: number
}): CheckedClusterOptions {
  if (typeof options !== 'object' || options === null)
    throw new EngineError('INVALID_INPUT', 'options must be an object')
  // The metadata store's rules for connectionString, schema and poolSize.
  const { connectionString, schema, poolSize } = checkPostgresOptions({
    connectionString: options.connectionString,
    poolSize: options.poolSize,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  })
  checkNodeId(options.nodeId)
  checkStaleAfterMs(options.staleAfterMs)
  return {
    connectionString,
    schema,
    poolSize,
    nodeId: options.nodeId,
    staleAfterMs: options.staleAfterMs,
  }
}
