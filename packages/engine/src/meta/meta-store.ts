/**
 * Key spaces of the metadata store (DESIGN §3.1). Binary spaces are keyed by hash bytes;
 * text spaces by strings.
 */
export const BINARY_SPACES = ['obj', 'chunkidx', 'chunk', 'idx'] as const
export const TEXT_SPACES = ['ref', 'refinfo', 'meta', 'log', 'sys', 'headlog'] as const

/** A space keyed by hash bytes: tree objects, the chunk index, chunks kept in the level store, query indexes of directory versions. */
export type BinarySpace = (typeof BINARY_SPACES)[number]
/** A space keyed by strings: refs and their info, engine meta and counters, the version log, other packages' records, the HEAD log. */
export type TextSpace = (typeof TEXT_SPACES)[number]
/** Any key space. */
export type Space = BinarySpace | TextSpace

/** The key type of a space. */
export type KeyOf<S extends Space> = S extends BinarySpace ? Uint8Array : string

/** One write of a metadata batch. */
export type MetaOp =
  | { type: 'put'; space: BinarySpace; key: Uint8Array; value: Uint8Array }
  | { type: 'put'; space: TextSpace; key: string; value: Uint8Array }
  | { type: 'del'; space: BinarySpace; key: Uint8Array }
  | { type: 'del'; space: TextSpace; key: string }

/**
 * A condition of a guarded batch: the value stored at `key` of `space` just before the batch
 * is written must equal `expect` byte for byte, or, with `expect: null`, the key must be absent.
 */
export type MetaGuard =
  | { space: BinarySpace; key: Uint8Array; expect: Uint8Array | null }
  | { space: TextSpace; key: string; expect: Uint8Array | null }

/** Bounds of an ordered iteration; keys compare bytewise (strings by their UTF-8 bytes). */
export interface RangeOptions<K> {
  gt?: K
  gte?: K
  lt?: K
  lte?: K
  limit?: number
  reverse?: boolean
}

/**
 * The engine's only door to metadata (DESIGN §3.1): point reads, atomic batches and ordered
 * iteration. Implemented over abstract-level; a scale-out driver implements it over SQL.
 */
export interface MetaStore {
  get<S extends Space>(space: S, key: KeyOf<S>): Promise<Uint8Array | undefined>
  getMany<S extends Space>(space: S, keys: readonly KeyOf<S>[]): Promise<(Uint8Array | undefined)[]>
  /**
   * Applies every op or none. With `sync: true` it resolves only once the batch is on stable
   * storage.
   *
   * With `guards` (none costs no read), the batch is a compare-and-set: its ops apply only if every guard holds at
   * the moment of the write, checked against the store as every batch committed before it
   * left it (never against the batch's own ops), atomically with the write, also against
   * other processes sharing the store. If one does not hold, nothing of the batch is written
   * and it fails with `CONFLICT` naming the space and key; of batches racing on one guarded
   * key, exactly one wins per value. Guards are checked even when `ops` is empty. An op or
   * guard no store could take (unknown space, wrong key type, a value that is not bytes)
   * fails with `INVALID_INPUT` before anything is queued; a closed store fails with `CLOSED`.
   */
  batch(
    ops: readonly MetaOp[],
    options: { sync: boolean; guards?: readonly MetaGuard[] },
  ): Promise<void>
  iterate<S extends Space>(
    space: S,
    range?: RangeOptions<KeyOf<S>>,
  ): AsyncIterable<[KeyOf<S>, Uint8Array]>
  /** Keys only, in order: cheaper when values are not needed (GC scans). */
  keys<S extends Space>(space: S, range?: RangeOptions<KeyOf<S>>): AsyncIterable<KeyOf<S>>
  /**
   * Optional: calls `listener` soon after any process commits a batch to this store (at
   * least every guarded one: each commit of a shared database); best effort, no payload (a
   * listener checks what changed itself). Returns the function that
   * stops it. A shared database with change listeners uses it to report other nodes' commits
   * at once; without it, the database polls.
   */
  watch?(listener: () => void): () => void
  close(): Promise<void>
}
