import type { MetaOp } from '../meta/meta-store'

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
  /** True when the chunk is stored, committed or staged. */
  has(hash: Uint8Array): Promise<boolean>
  /**
   * The raw bytes of a chunk, checked against their framing CRC (and length); a mismatch
   * throws `CONTENT_CORRUPT`, a missing chunk `NOT_FOUND`. Never returns corrupt bytes.
   */
  read(hash: Uint8Array): Promise<Uint8Array>
  /**
   * Stores a chunk whose hash (32 bytes, else `RangeError`) the caller computed; compresses it
   * when that saves space. `bytes` must not change until the returned promise settles.
   * Concurrent stages of one hash store the bytes once.
   */
  stage(hash: Uint8Array, bytes: Uint8Array): Promise<StageResult>
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
  /** Releases files and handles; the metadata store is closed by its owner. */
  close(): Promise<void>
}
