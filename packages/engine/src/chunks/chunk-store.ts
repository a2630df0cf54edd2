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
  /** Stores a chunk whose hash the caller computed; compresses it when that saves space. */
  stage(hash: Uint8Array, bytes: Uint8Array): Promise<StageResult>
  /** Makes every staged byte durable; returns ops to commit with the group's batch. */
  flush(): Promise<MetaOp[]>
  /** Tells the store the batch holding the staged ops committed, so it may forget them. */
  committed(): void
  /** Releases files and handles; the metadata store is closed by its owner. */
  close(): Promise<void>
}
