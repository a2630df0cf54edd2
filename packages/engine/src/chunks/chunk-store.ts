import type { MetaOp } from '../meta/meta-store'
import type { ChunkSweep } from './chunk-sweep'

/** What storing one chunk did. */
export interface StageResult {
  /**
   * Metadata that makes the chunk findable (chunk index entry, or the chunk itself for the
   * level store). The caller commits it in its own batch, after {@link ChunkStore.flush}.
   * Returned every time the chunk is not yet committed, so concurrent writers of the same
   * chunk each carry the op (an idempotent put).
   */
  ops: MetaOp[]
  /** True when these bytes were not stored before (committed or staged). */
  isNew: boolean
  /** Bytes taken on storage (after compression and framing); 0 when not new. */
  storedBytes: number
}

/** One chunk to stage: its hash (computed by the caller) and its raw bytes. */
export interface StageItem {
  hash: Uint8Array
  bytes: Uint8Array
}

/** One committed chunk, as {@link ChunkStore.entries} lists it. */
export interface ChunkEntry {
  hash: Uint8Array
  /** Bytes the chunk takes on storage (record header plus stored bytes), as `stage()` reported. */
  storedBytes: number
}

/** Options of {@link ChunkStore.compact}. */
export interface CompactOptions {
  /**
   * Commits the ops that switch readers to the rewritten data, in one synced metadata batch
   * (through the caller's serial committer). Called at most once, and not at all when there is
   * nothing to rewrite; the store removes old data only after it resolves.
   */
  commit(ops: MetaOp[]): Promise<void>
  /**
   * Dead share (dead bytes / file size) from which a pack is rewritten, in `[0, 1]`; default
   * 0.5. Packs without a single live record are always removed.
   */
  minDeadRatio?: number
  /** Cancels the compaction until `commit` is called: it then rejects with `ABORTED`. */
  signal?: AbortSignal
  /** Progress in bytes of live records copied so far, out of those to copy. */
  onProgress?(done: number, total: number): void
}

/** What {@link ChunkStore.compact} did. */
export interface CompactReport {
  /** Packs whose live records were copied to new packs (then removed). */
  packsRewritten: number
  /** Pack files removed: the rewritten ones and those with no live record. */
  packsRemoved: number
  /** Bytes of live records copied. */
  movedBytes: number
  /** Bytes freed on storage: removed files minus the copies written. */
  reclaimedBytes: number
  /**
   * Dead bytes left in every pack afterwards (records removed or never committed). Records
   * written but not yet committed when the compaction looked count as dead.
   */
  deadBytes: number
}

/** Hints for {@link ChunkStore.read}. */
export interface ReadOptions {
  /** The chunk's raw size, when the caller knows it (a file's chunk list does): lets a tiered store look in the right tier first. */
  size?: number
  /** Read from storage even when a cache holds the chunk (verification must see the disk). */
  bypassCache?: boolean
}

/** Hints for {@link ChunkStore.readMany}. */
export interface ReadManyOptions {
  /** The chunks' raw sizes, in the same order, when the caller knows them (see {@link ReadOptions.size}). */
  sizes?: readonly number[]
  /** As {@link ReadOptions.bypassCache}. */
  bypassCache?: boolean
  /**
   * Where a store that reads spans of its files may read them (see {@link SpanBuffers}); a
   * store without such reads ignores it.
   */
  buffers?: SpanBuffers
}

/**
 * Memory a caller lends a store to read into, so a reader streaming a large file reuses a few
 * buffers instead of allocating (and page-faulting) a new one per window. Chunks the store
 * returns may then be views of those buffers: the caller must not reuse a buffer while it
 * still needs the chunks read into it.
 */
export interface SpanBuffers {
  /** A buffer of at least `length` bytes. */
  take(length: number): Uint8Array
}

/**
 * Where chunk bytes live (DESIGN §3.1): the `pack` store (append-only framed files, index in
 * the metadata store) or the `level` store (chunks inside the metadata store). Every
 * implementation passes the conformance suite of `@svcdb/engine/testing`.
 *
 * Durability protocol: `stage()` chunks, then `flush()` once for a whole group of writes
 * (fdatasync of pack bytes; it returns ops recording what is now durable), then commit every
 * returned op in one synced metadata batch, then call `committed()`.
 */
export interface ChunkStore {
  readonly kind: 'pack' | 'level' | (string & {})
  /**
   * True when the chunk is stored, committed or staged; with `committed: true`, only when its
   * batch has committed (what an object may reference without carrying the chunk's ops).
   */
  has(hash: Uint8Array, options?: { committed?: boolean }): Promise<boolean>
  /**
   * The raw length of a stored chunk (as `has`, staged ones included unless `committed: true`),
   * or `undefined` when it is not stored. Read from the index or the record's header, never
   * from a caller's claim: a file's chunk list must record what is really stored.
   */
  rawSize(hash: Uint8Array, options?: { committed?: boolean }): Promise<number | undefined>
  /**
   * The raw bytes of a chunk, checked against their framing CRC (and length); a mismatch
   * throws `CONTENT_CORRUPT`, a missing chunk `NOT_FOUND`. Never returns corrupt bytes.
   */
  read(hash: Uint8Array, options?: ReadOptions): Promise<Uint8Array>
  /**
   * Optional: the raw bytes of several chunks, in the order asked, each checked as `read()`
   * checks it (a failure of any one rejects the whole call with that chunk's error). A store
   * that keeps chunks written together side by side fetches them with few large reads; one
   * without it is read chunk by chunk (see `readChunks`).
   */
  readMany?(hashes: readonly Uint8Array[], options?: ReadManyOptions): Promise<Uint8Array[]>
  /**
   * Stores a chunk whose hash (32 bytes, else `RangeError`) the caller computed; compresses it
   * when that saves space. `bytes` must not change until the returned promise settles.
   * Concurrent stages of one hash store the bytes once.
   */
  stage(hash: Uint8Array, bytes: Uint8Array): Promise<StageResult>
  /**
   * Optional: stages several chunks as {@link stage} does each, results in the same order. A
   * store that appends records keeps those of one call side by side, in order (one upload's
   * chunks then read back with one large read); a store without it is staged chunk by chunk.
   */
  stageMany?(chunks: readonly StageItem[]): Promise<StageResult[]>
  /**
   * Makes every chunk staged before the call durable; returns ops to commit with the group's
   * batch. Concurrent callers share one flush (one fdatasync per pack). The returned ops are
   * safe to commit in any order relative to other groups' batches.
   */
  flush(): Promise<MetaOp[]>
  /**
   * Tells the store the batch that followed the latest flush committed, so it may forget the
   * chunks that flush covered. Calling it early or late is safe: a forgotten chunk is found in
   * the index, or staged again.
   */
  committed(): void
  /**
   * Every committed chunk (staged ones only once their batch committed), in hash order per
   * underlying space (the tiered store lists its small tier, then its large one). Streams from
   * the metadata store; chunks committed or removed meanwhile may or may not appear.
   */
  entries(): AsyncIterable<ChunkEntry>
  /**
   * The ops that forget a committed chunk, for the caller to commit in its own synced batch.
   * Once committed, `has()` is false, `read()` fails with `NOT_FOUND` and a later `stage()` of
   * the bytes stores them again. Deleting an absent chunk is harmless. The caller guarantees
   * that no `stage()` or `has()` of this chunk runs until the batch has committed. In the pack
   * store the record's bytes become dead space, reclaimed by {@link compact}.
   */
  removeOps(hash: Uint8Array): MetaOp[]
  /**
   * Reclaims dead space. The pack store copies the live records of packs whose dead share
   * reaches `minDeadRatio` (never the pack being appended to) to new packs, makes the copies
   * durable, commits the new locations through `options.commit` in one call, and only then
   * deletes the old packs. Reads running meanwhile succeed. A failure or abort before `commit`
   * leaves everything as it was (the copies are dead bytes). The level store has nothing to
   * do. Compactions of one store run one at a time.
   *
   * Precondition, in the pack store: when `compact()` is called, every op an earlier `stage()`
   * returned has been committed, or will never be (hold new writes and let in-flight ones
   * finish around the call; writes may resume as soon as it has returned its promise). Ops
   * handed out after the call are safe: their packs are left alone.
   */
  compact(options: CompactOptions): Promise<CompactReport>
  /**
   * Present when the store records `last_seen` (made with `lastSeen`): the removal a GC of a
   * database shared by several nodes uses instead of {@link removeOps}, which spares chunks
   * other nodes stored or reused within the grace period.
   */
  readonly sweep?: ChunkSweep
  /** Releases files and handles; the metadata store is closed by its owner. */
  close(): Promise<void>
}

/**
 * Reads several chunks through {@link ChunkStore.readMany} when the store has it, else one
 * `read()` per chunk, all started at once.
 */
export function readChunks(
  store: ChunkStore,
  hashes: readonly Uint8Array[],
  options: ReadManyOptions = {},
): Promise<Uint8Array[]> {
  if (store.readMany !== undefined) return store.readMany(hashes, options)
  const { sizes, bypassCache } = options
  return Promise.all(
    hashes.map((hash, i) => {
      const size = sizes?.[i]
      return store.read(hash, {
        ...(size === undefined ? {} : { size }),
        ...(bypassCache === undefined ? {} : { bypassCache }),
      })
    }),
  )
}
