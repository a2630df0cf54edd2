/** One stored object, as {@link BlobStore.list} reports it. */
export interface BlobInfo {
  /** The object's key. */
  key: string
  /** Bytes of the object. */
  size: number
  /**
   * When the object was last written, in ms since the epoch (the store's clock; S3 reports
   * whole seconds). Writing a key again moves it forward: a blob chunk store's orphan sweep
   * relies on that to spare an upload that repeats an old one.
   */
  modified: number
}

/**
 * A byte range of an object: `start` inclusive, `end` exclusive, both non-negative integers
 * with `start <= end` (else `RangeError`).
 */
export interface BlobRange {
  /** Offset of the first byte returned. */
  start: number
  /** Offset just past the last byte returned. */
  end: number
}

/**
 * A flat store of immutable objects under string keys (an S3 bucket, memory): the narrow port
 * a blob chunk store keeps chunk records in. Objects are written once per key; writing a key
 * again with the same bytes is harmless (two nodes uploading one chunk). Keys are UTF-8
 * strings of at most 1,024 bytes.
 *
 * Every call on a closed store fails with `EngineError` `CLOSED`; a failure of the underlying
 * service is an `EngineError` (`IO_ERROR` unless a more precise code fits) with the original as
 * `cause`. Every implementation passes `runBlobStoreConformance` of `@svcdb/engine/testing`.
 */
export interface BlobStore {
  /**
   * Stores `bytes` under `key`, replacing any object there; resolves once they are durable in
   * the store. The caller may reuse `bytes` once the promise settles.
   */
  put(key: string, bytes: Uint8Array): Promise<void>
  /**
   * The bytes of `key` (only `range` of them when given; a range past the end is cut at the
   * end, one starting at or past the end is empty), or `undefined` when there is no such
   * object. The caller owns the returned bytes.
   */
  get(key: string, range?: BlobRange): Promise<Uint8Array | undefined>
  /**
   * Deletes the objects, any number in one call (S3 takes 1,000 a request: the implementation
   * splits); keys that do not exist are ignored.
   */
  delete(keys: readonly string[]): Promise<void>
  /**
   * Every object whose key starts with `prefix` (`''`: every object), in key order compared
   * bytewise as UTF-8 (not as UTF-16 strings), however many pages the service takes. Objects
   * written or deleted while it runs may or may not appear.
   */
  list(prefix: string): AsyncIterable<BlobInfo>
  /** Releases connections; calls afterwards fail with `CLOSED`. Closing again is harmless. */
  close(): Promise<void>
}
