import { EngineError, isEngineError } from '../errors'
import type { Clock } from '../internal/clock'
import type { MetaStore } from '../meta/meta-store'
import type { BlobStore } from './blob-store'
import { createBlobChunkCache } from './blob-chunk-cache'
import {
  blobLastSeenCodec,
  blobObjectSize,
  decodeBlobChunkEntry,
  isBlobTombstone,
} from './blob-chunk-entry'
import { blobChunkSweep } from './blob-chunk-removal'
import { blobChunkKey } from './blob-chunk-key'
import { readBlobChunk, readBlobChunks } from './blob-chunk-read'
import type { BlobStaged } from './blob-chunk-read'
import { createBlobStager } from './blob-chunk-stager'
import { sweepOrphans } from './blob-chunk-sweep'
import type { CompressionOptions } from './chunk-codec'
import { encodeChunkRecord, joinChunkRecord } from './chunk-record'
import type { ChunkStore, CompactReport, StageResult } from './chunk-store'
import { checkCompactOptions, throwIfAborted } from './compact-options'
import { createLastSeen } from './last-seen'
import type { LastSeenOptions } from './last-seen'
import { stagedChunks } from './staged-chunks'
import { StagingTable } from './staging-table'

/** Options of {@link createBlobChunkStore}. */
export interface BlobChunkStoreOptions {
  /** The metadata store holding the chunk index (`chunkidx`). Owned by the caller. */
  meta: MetaStore
  /** Where the chunk objects live (`chunks/<2 hex>/<64 hex>`). Owned by the caller. */
  blobs: BlobStore
  /** How records are compressed, as in the other chunk stores. */
  compression?: CompressionOptions
  /**
   * How old (by the objects' `modified`) an unindexed object must be before `compact()`
   * deletes it. Default 24 h. It must exceed the longest time between a stage and the commit
   * of its batch on any node sharing the objects: younger orphans may be uploads another node
   * has not committed yet. (It does not cover every cross-node race: see `sweepOrphans`.)
   */
  orphanGraceMs?: number
  /** The clock `compact()` measures the grace period with (compare the blob store's clock). */
  clock?: Clock
  /** Object GETs one `readMany` call runs at once. Default 16. */
  readConcurrency?: number
  /**
   * A node-local read cache of chunk objects on disk: each object read is kept under
   * `<dir>/<2 hex>/<64 hex>`, and read from there next time instead of the blob store. At most
   * `maxBytes` of files (least recently used deleted first; the directory is scanned at open).
   * Chunks are immutable, so a copy is never stale; a cached copy is checked like a fetched
   * one (a corrupt or truncated file is deleted and the object fetched again), and only
   * chunks the index holds are served. Files of removed chunks stay until evicted.
   * Default: no cache.
   */
  cache?: { dir: string; maxBytes: number }
  /**
   * Records when each chunk was last stored or reused in its index entry, for the GC of a
   * database several nodes share (see {@link ChunkStore.sweep}): every node of the cluster
   * must set it. Default: not recorded, no `sweep`.
   */
  lastSeen?: LastSeenOptions
}

const DAY_MS = 24 * 60 * 60 * 1000
const systemClock: Clock = { now: () => Date.now() }

function ioError(action: string, err: unknown): EngineError {
  if (isEngineError(err)) return err
  return new EngineError('IO_ERROR', `blob ${action} failed: ${(err as Error)?.message}`, {
    cause: err,
  })
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`)
  }
  return value
}

/**
 * A {@link ChunkStore} that keeps each chunk as one object of a {@link BlobStore} (an S3
 * bucket): the engine's framed record (codec, raw length, CRC) under
 * `chunks/<first 2 hex>/<64 hex>`, indexed in the metadata store's `chunkidx` space.
 *
 * `stage()` resolves once the object's put has resolved, so the chunk is durable before its
 * index op exists; `flush()` has nothing left to make durable and returns no ops. Reads check
 * the record against the index entry and its CRC; corrupt bytes are never returned.
 *
 * `removeOps()` drops the index entry; the object stays until `compact()` sweeps it. The sweep
 * deletes objects under `chunks/` that the index does not hold and that are older than
 * `orphanGraceMs` (uploads of other nodes not yet committed are younger), sparing any this
 * store stages meanwhile. It never calls `options.commit`. `close()` closes neither `meta`
 * nor `blobs`: their owner does.
 *
 * @example
 * const chunks = createBlobChunkStore({ meta, blobs: createS3BlobStore(...) })
 * const { ops } = await chunks.stage(hash, bytes)
 * await meta.batch([...ops, ...(await chunks.flush())], { sync: true })
 * chunks.committed()
 */
export function createBlobChunkStore(options: BlobChunkStoreOptions): ChunkStore {
  const { meta, blobs, compression = {}, clock = systemClock } = options
  const orphanGraceMs = options.orphanGraceMs ?? DAY_MS
  if (!(orphanGraceMs >= 0 && Number.isFinite(orphanGraceMs))) {
    throw new RangeError(`orphanGraceMs must be a finite number >= 0, got ${orphanGraceMs}`)
  }
  const readConcurrency = positiveInteger(options.readConcurrency ?? 16, 'readConcurrency')
  const table = new StagingTable<BlobStaged>()
  const deleting = new Map<string, Promise<void>>()
  /** Object keys staged since the running sweep started (compactions run one at a time). */
  let stagedDuringSweep: Set<string> | undefined
  let compacting: Promise<unknown> = Promise.resolve()
  let closed = false

  const assertOpen = (): void => {
    if (closed) throw new EngineError('CLOSED', 'the chunk store is closed')
  }
  const cache = options.cache === undefined ? undefined : createBlobChunkCache(options.cache)
  const inflight = new Map<string, Promise<Uint8Array | undefined>>()
  const reads = { table, meta, blobs, readConcurrency, cache, inflight, assertOpen, ioError }

  const lastSeen =
    options.lastSeen === undefined
      ? undefined
      : createLastSeen(meta, 'chunkidx', blobLastSeenCodec, options.lastSeen)

  const shared = stagedChunks({
    table,
    meta,
    space: 'chunkidx',
    stagedRawLength: (staged) => staged.entry.rawLength,
    committedRawLength: (entry) => decodeBlobChunkEntry(entry).rawLength,
    assertOpen,
    ...(lastSeen === undefined ? {} : { lastSeen }),
  })

  /** Uploads the chunk's record; resolves once the object is durable. */
  async function upload(hash: Uint8Array, bytes: Uint8Array): Promise<BlobStaged> {
    const record = await encodeChunkRecord(hash, bytes, compression)
    const key = blobChunkKey(hash)
    // A sweep deleting this very object: put after it, never alongside.
    await deleting.get(key)
    assertOpen()
    try {
      await blobs.put(key, joinChunkRecord(record))
    } catch (err) {
      throw ioError(`put of ${key}`, err)
    }
    const { codec, rawLength } = record
    return {
      entry: { codec, rawLength, storedLength: record.body.length },
      objectSize: record.length,
    }
  }

  const stageMany = createBlobStager({
    table,
    meta,
    upload,
    watch: (hash) => stagedDuringSweep?.add(blobChunkKey(hash)),
    assertOpen,
    ...(lastSeen === undefined ? {} : { lastSeen }),
  })

  return {
    kind: 'blob',
    has: shared.has,
    rawSize: shared.rawSize,

    read(hash) {
      return readBlobChunk(reads, hash)
    },

    readMany(hashes) {
      return readBlobChunks(reads, hashes)
    },

    stage(hash, bytes): Promise<StageResult> {
      return stageMany([{ hash, bytes }]).then((results) => results[0] as StageResult)
    },

    stageMany(items) {
      return stageMany(items)
    },

    async *entries() {
      assertOpen()
      for await (const [hash, entry] of meta.iterate('chunkidx')) {
        if (isBlobTombstone(entry)) continue
        yield { hash, storedBytes: blobObjectSize(decodeBlobChunkEntry(entry)) }
      }
    },

    removeOps: shared.removeOps,

    ...(lastSeen === undefined
      ? {}
      : {
          sweep: blobChunkSweep({
            meta,
            blobs,
            lastSeen,
            forget: (hash) => table.forget(hash),
            deleting,
            ioError,
          }),
        }),

    compact(compactOptions): Promise<CompactReport> {
      try {
        assertOpen()
        checkCompactOptions(compactOptions)
        throwIfAborted(compactOptions.signal)
      } catch (err) {
        return Promise.reject(err)
      }
      const sweep = async (): Promise<CompactReport> => {
        assertOpen()
        const watched = new Set<string>()
        stagedDuringSweep = watched
        try {
          return await sweepOrphans({
            meta,
            blobs,
            cutoff: clock.now() - orphanGraceMs,
            isStaged: (hash) => table.get(hash) !== undefined || watched.has(blobChunkKey(hash)),
            deleting,
            signal: compactOptions.signal,
            assertOpen,
            ioError,
          })
        } finally {
          stagedDuringSweep = undefined
        }
      }
      const run = compacting.then(sweep)
      compacting = run.catch(() => undefined)
      return run
    },

    async flush() {
      assertOpen()
      // Every stage that resolved is durable already, and its op is in the caller's hands.
      table.flushed(table.mark())
      return []
    },

    committed: shared.committed,

    async close() {
      if (closed) return
      closed = true
      // Let this store's own puts and deletes settle before the owner closes `blobs`.
      await Promise.allSettled([...table.entries().map((entry) => entry.promise), compacting])
      table.clear()
      await cache?.close()
    },
  }
}
