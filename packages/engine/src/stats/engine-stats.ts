import type { HashAlgorithm } from '../hashing/hasher'
import type { Percentiles } from './latency-window'
import type { PeakRates, Rates } from './rate-meter'

/** The engine's counters (DESIGN §3.7), all read in constant time. */
export interface EngineStats {
  hashAlgorithm: HashAlgorithm
  /** Average chunk size of the chunker, in bytes. */
  chunkSize: number
  counts: {
    /** Files, directories (the root excluded) and symlinks of HEAD. */
    files: number
    directories: number
    symlinks: number
    /** Chunks stored. */
    chunks: number
    snapshots: number
    forks: number
  }
  sizes: {
    /** Bytes of the files of HEAD. */
    logicalData: number
    /** Bytes of chunks on storage, after compression. */
    chunkData: number
    /** Bytes of HEAD not stored twice thanks to deduplication: logical data minus raw chunk bytes, when positive. */
    dedupSavings: number
    /** Bytes on storage no committed chunk references (failed uploads; reclaimed by GC compaction). */
    voidSpace: number
  }
  throughput: {
    writesPerSec: PeakRates
    readsPerSec: PeakRates
    bytesWrittenPerSec: Rates
    bytesReadPerSec: Rates
  }
  latency: { write: Percentiles; read: Percentiles; query: Percentiles; flush: Percentiles }
  health: {
    /** Share of chunks written since start that were already stored. */
    dedupHitRate: number
    /** Writes waiting for the next group commit. */
    writeBufferDepth: number
    /** Bytes the latest garbage collection of this process reclaimed. */
    gcLastReclaimedBytes: number
  }
}

/** Persistent counters, kept in the `meta` space and updated in every commit batch. */
export interface StoredCounters {
  chunks: number
  chunkRawBytes: number
  chunkStoredBytes: number
  voidBytes: number
}
