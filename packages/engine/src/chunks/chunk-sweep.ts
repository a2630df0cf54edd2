import type { MetaGuard, MetaOp } from '../meta/meta-store'

/** One committed chunk (or a removal left half done) as a cluster GC sees it. */
export interface SweepEntry {
  /** The chunk's hash. */
  hash: Uint8Array
  /** The space holding its entry. */
  space: 'chunk' | 'chunkidx'
  /** The entry as read: a removal applies only while it is still stored as it was. */
  value: Uint8Array
  /**
   * When a node last stored or reused the chunk (Unix ms, the writers' clocks; 0 when never
   * recorded); for a tombstone, when its removal began.
   */
  lastSeen: number
  /** False for a tombstone: a removal that began and did not finish (its counters are gone). */
  live: boolean
  /** Bytes the chunk takes on storage; 0 for a tombstone. */
  storedBytes: number
  /** The chunk's raw length; 0 for a tombstone. */
  rawBytes: number
}

/** What removing some entries takes: ops and guards for the caller's batch, then the rest. */
export interface SweepRemoval {
  /** Writes for the caller's batch: the entries' removal. */
  ops: MetaOp[]
  /** One per entry: the batch applies only while every entry is stored as read. */
  guards: MetaGuard[]
  /**
   * Called once the batch committed: deletes what lives outside the metadata store (the
   * objects of a blob store), then the tombstones the batch left. Nothing to do in a store
   * whose chunks live in the metadata store.
   */
  afterCommit(): Promise<void>
}

/**
 * The cluster-safe removal of a chunk store that records `last_seen` (see
 * `LastSeenOptions`). Nodes refresh `last_seen` whenever they store or reuse a chunk, with a
 * write guarded on the entry; a GC removes only entries it read with an old `last_seen`,
 * guarded on the same value, so of a reuse and a removal exactly one wins.
 */
export interface ChunkSweep {
  /** Every entry, tombstones included, streamed from the metadata store in hash order. */
  entries(): AsyncIterable<SweepEntry>
  /** The entries as stored now (after a lost batch), `undefined` for those gone. */
  reread(entries: readonly SweepEntry[]): Promise<(SweepEntry | undefined)[]>
  /**
   * The removal of `entries`: in a blob store the batch replaces each entry by a tombstone
   * (stages of the chunk wait for it), the objects are deleted after it committed, and then
   * the tombstones; in a level store the batch deletes the records.
   */
  removal(entries: readonly SweepEntry[]): SweepRemoval
  /** How old a `last_seen` gets before a reuse stamps it again (the GC grace must be twice this). */
  readonly refreshMs: number
}
