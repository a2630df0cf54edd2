import { join } from 'node:path'
import {
  createBlobChunkStore,
  createLevelChunkStore,
  createLocalCluster,
  createLocalLeases,
  createTieredChunkStore,
  Database,
} from '@svcdb/engine'
import type { BlobStore, ChunkStore, Cluster, Leases, MetaStore } from '@svcdb/engine'
import type { StorageConfig } from '../config/server-config'

/** Bytes of S3 chunk objects kept on `--data` (least recently used deleted past it). */
const CHUNK_CACHE_BYTES = 1024 ** 3

/** The server's database, the coordination of the nodes sharing it, and how to release them. */
export interface OpenedDatabase {
  db: Database
  /** True when other nodes may share the database (PostgreSQL metadata). */
  shared: boolean
  /** Claims and locks of jobs run once across the nodes (cron slots, GC, webhook delivery). */
  leases: Leases
  /** The nodes sharing the database and their heartbeats; this node alone when embedded. */
  cluster: Cluster
  /**
   * Calls `listener` soon after any node writes a guarded batch (a commit, an identity or
   * task change); returns the function that stops it. Never calls it when embedded, where
   * every write is this process's own.
   */
  watch(listener: () => void): () => void
  /** Closes the database, then the stores it does not own (leases, cluster, S3 client). */
  close(): Promise<void>
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  headLogRetentionMs?: number
  /** This node's id in the cluster (`--node-id`). */
  nodeId: number
  /**
   * Open PostgreSQL metadata for this process alone, as a tool that must not run beside
   * servers does (`reset-root-key`): `LOCKED` while any node has it open.
   */
  exclusive?: boolean
}

/**
 * Opens the database the configuration names: the data directory, or PostgreSQL (and S3)
 * shared with the other nodes started on the same URLs. The drivers are loaded only when asked
 * for, so an embedded server never loads `pg` or the S3 SDK.
 */
export async function openDatabase(
  storage: StorageConfig,
  dataDir: string,
  options: OpenDatabaseOptions,
): Promise<OpenedDatabase> {
  const { nodeId, exclusive = false, ...dbOptions } = options
  if (storage.kind === 'embedded') {
    return alone(await Database.open({ path: dataDir, ...dbOptions }), nodeId)
  }
  const postgres = await import('@svcdb/postgres')
  const connectionString = storage.meta
  // A member: any number of nodes share the schema; exclusive tools wait until none runs.
  const meta: MetaStore = await postgres.createPostgresMetaStore(
    exclusive ? { connectionString, exclusive } : { connectionString, member: true },
  )
  if (exclusive) {
    try {
      return alone(await Database.open({ meta, ...dbOptions }), nodeId)
    } catch (err) {
      await meta.close().catch(() => undefined)
      throw err
    }
  }
  const owned: { close(): Promise<void> }[] = []
  const closeOwned = async () => {
    for (const store of owned.reverse()) await store.close().catch(() => undefined)
  }
  try {
    const leases = await postgres.createPostgresLeases({
      connectionString,
      nodeId: String(nodeId),
    })
    owned.push(leases)
    const cluster = await postgres.createPostgresCluster({
      connectionString,
      nodeId: String(nodeId),
    })
    owned.push(cluster)
    let chunks: ChunkStore | undefined
    if (storage.chunks !== undefined) {
      const { createS3BlobStore, parseS3Url } = await import('@svcdb/s3')
      const blobs: BlobStore = createS3BlobStore(parseS3Url(storage.chunks))
      owned.push(blobs)
      // Small chunks stay in PostgreSQL, committed with the metadata that names them: a small
      // file then costs no S3 request to write or read (as the embedded layout keeps them in
      // LevelDB). Larger ones go to S3.
      chunks = createTieredChunkStore({
        // Every node stamps the chunks it stores or reuses (`lastSeen`): GC spares a chunk
        // another node uploaded for a commit still to come.
        small: createLevelChunkStore({ meta, lastSeen: {} }),
        // Chunks never change, so a node-local copy on --data spares S3 GETs and is never stale.
        large: createBlobChunkStore({
          meta,
          blobs,
          lastSeen: {},
          cache: { dir: join(dataDir, 'chunk-cache'), maxBytes: CHUNK_CACHE_BYTES },
        }),
      })
    }
    const db = await Database.open({
      meta,
      shared: true,
      // GC runs on one node at a time, under the cluster's lock.
      leases,
      ...(chunks === undefined ? {} : { chunks }),
      ...dbOptions,
    })
    return {
      db,
      shared: true,
      leases,
      cluster,
      watch: (listener) => meta.watch?.(listener) ?? (() => undefined),
      async close() {
        try {
          await db.close()
        } finally {
          await closeOwned()
        }
      },
    }
  } catch (err) {
    await meta.close().catch(() => undefined)
    await closeOwned()
    throw err
  }
}

/** A database this process has to itself: its own leases and a cluster of one. */
function alone(db: Database, nodeId: number): OpenedDatabase {
  const leases = createLocalLeases()
  const cluster = createLocalCluster(String(nodeId))
  return {
    db,
    shared: false,
    leases,
    cluster,
    watch: () => () => undefined,
    async close() {
      try {
        await db.close()
      } finally {
        await leases.close()
        await cluster.close()
      }
    },
  }
}
