import type { Totals } from '../objects/tree-objects'
import type { EngineStats, StoredCounters } from './engine-stats'
import { LatencyWindow } from './latency-window'
import { RateMeter } from './rate-meter'

/** Where the in-memory measures of an open database meet its persistent counters. */
export interface StatsSources {
  hashAlgorithm: EngineStats['hashAlgorithm']
  chunkSize: number
  counters: StoredCounters
  head: Totals
  pendingWrites: number
  snapshots: number
  forks: number
  gcLastReclaimedBytes: number
}

/**
 * Throughput meters, latency windows and dedup figures of an open database, turned into an
 * {@link EngineStats} snapshot in constant time.
 */
export class DatabaseMeters {
  readonly latency = {
    write: new LatencyWindow(),
    read: new LatencyWindow(),
    query: new LatencyWindow(),
    flush: new LatencyWindow(),
  }
  private readonly writes: RateMeter
  private readonly reads: RateMeter
  private readonly bytesWritten: RateMeter
  private readonly bytesRead: RateMeter
  private chunksWritten = 0
  private dedupHits = 0

  constructor(now: () => number) {
    this.writes = new RateMeter(now)
    this.reads = new RateMeter(now)
    this.bytesWritten = new RateMeter(now)
    this.bytesRead = new RateMeter(now)
  }

  /** Chunks an upload cut, and how many of them were already stored. */
  chunksIngested(total: number, fresh: number): void {
    this.chunksWritten += total
    this.dedupHits += total - fresh
  }

  write(bytes: number, ms: number): void {
    this.writes.mark()
    this.bytesWritten.mark(bytes)
    this.latency.write.record(ms)
  }

  read(bytes: number, ms: number): void {
    this.reads.mark()
    this.bytesRead.mark(bytes)
    this.latency.read.record(ms)
  }

  snapshot(sources: StatsSources): EngineStats {
    const { counters, head } = sources
    const smooth = (meter: RateMeter) => {
      const { m1, m5, m15 } = meter.read()
      return { m1, m5, m15 }
    }
    return {
      hashAlgorithm: sources.hashAlgorithm,
      chunkSize: sources.chunkSize,
      counts: {
        files: head.files,
        directories: head.dirs,
        symlinks: head.links,
        chunks: counters.chunks,
        snapshots: sources.snapshots,
        forks: sources.forks,
      },
      sizes: {
        logicalData: head.bytes,
        chunkData: counters.chunkStoredBytes,
        dedupSavings: Math.max(0, head.bytes - counters.chunkRawBytes),
        voidSpace: counters.voidBytes,
      },
      throughput: {
        writesPerSec: this.writes.read(),
        readsPerSec: this.reads.read(),
        bytesWrittenPerSec: smooth(this.bytesWritten),
        bytesReadPerSec: smooth(this.bytesRead),
      },
      latency: {
        write: this.latency.write.read(),
        read: this.latency.read.read(),
        query: this.latency.query.read(),
        flush: this.latency.flush.read(),
      },
      health: {
        dedupHitRate: this.chunksWritten === 0 ? 0 : this.dedupHits / this.chunksWritten,
        writeBufferDepth: sources.pendingWrites,
        gcLastReclaimedBytes: sources.gcLastReclaimedBytes,
      },
    }
  }
}
