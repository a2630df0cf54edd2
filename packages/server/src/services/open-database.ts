import { join } from 'node:path'
import {
  createBlobChunkStore,
  createLevelChunkStore,
  createTieredChunkStore,
  Database,
} from '@svcdb/engine'
import type { BlobStore, ChunkStore, MetaStore } from '@svcdb/engine'
import type { StorageConfig } from '../config/server-config'

/** Bytes of S3 chunk objects kept on `--data` (least recently used deleted past it). */
const CHUNK_CACHE_BYTES = 1024 ** 3

/** The server's database and how to release everything opened for it. */
export interface OpenedDatabase {
  db: Database
  /** Closes the database, then the stores it does not own (the S3 client). */
  close(): Promise<void>
}

/**
 * Opens the database the configuration names: the data directory, or PostgreSQL (and S3)
 * shared with other nodes. The drivers are loaded only when asked for, so an embedded server
 * never loads `pg` or the S3 SDK.
 */
export async function openDatabase(
  storage: StorageConfig,
  dataDir: string,
  options: { headLogRetentionMs?: number } = {},
): Promise<OpenedDatabase> {
  if (storage.kind === 'embedded') {
    const db = await Database.open({ path: dataDir, ...options })
    return { db, close: () => db.close() }
  }
  const { createPostgresMetaStore } = await import('@svcdb/postgres')
  // One process per database until nodes coordinate their commits (LOCKED otherwise).
  const meta: MetaStore = await createPostgresMetaStore({
    connectionString: storage.meta,
    exclusive: true,
  })
  let blobs: BlobStore | undefined
  try {
    let chunks: ChunkStore | undefined
    if (storage.chunks !== undefined) {
      const { createS3BlobStore, parseS3Url } = await import('@svcdb/s3')
      blobs = createS3BlobStore(parseS3Url(storage.chunks))
      // Small chunks stay in PostgreSQL, committed with the metadata that names them: a small
      // file then costs no S3 request to write or read (as the embedded layout keeps them in
      // LevelDB). Larger ones go to S3.
      chunks = createTieredChunkStore({
        small: createLevelChunkStore({ meta }),
        // Chunks never change, so a node-local copy on --data spares S3 GETs and is never stale.
        large: createBlobChunkStore({
          meta,
          blobs,
          cache: { dir: join(dataDir, 'chunk-cache'), maxBytes: CHUNK_CACHE_BYTES },
        }),
      })
    }
    const db = await Database.open({
      meta,
      ...(chunks === undefined ? {} : { chunks }),
      ...options,
    })
    const opened = blobs
    return {
      db,
      async close() {
        try {
          await db.close()
        } finally {
          await opened?.close()
        }
      },
    }
  } catch (err) {
    await meta.close().catch(() => undefined)
    await blobs?.close().catch(() => undefined)
    throw err
  }
}
