import type { StatsResponse } from '@svcdb/contract'
import type { EngineStats } from '@svcdb/engine'
import type { DiskSample } from './disk-sampler'

/** Where the stats snapshot's identity section comes from. */
export interface StatsIdentity {
  version: string
  databasePath: string
  nodeId: number
  startedAt: number
}

const round = (n: number) => Math.round(n * 1000) / 1000

/**
 * The spec's stats snapshot from the engine's counters and the latest disk sample: every
 * section and field, integers where the spec says integer, no `sync` (no replication).
 */
export function statsSnapshot(
  engine: EngineStats,
  disk: DiskSample,
  identity: StatsIdentity,
  now: number,
): StatsResponse {
  const { throughput: t, latency: l } = engine
  const rates = (r: { m1: number; m5: number; m15: number }) => ({
    '1m': round(r.m1),
    '5m': round(r.m5),
    '15m': round(r.m15),
  })
  const peak = (r: { m1: number; m5: number; m15: number; peak1m: number }) => ({
    ...rates(r),
    peak_1m: round(r.peak1m),
  })
  return {
    identity: {
      version: identity.version,
      database_path: identity.databasePath,
      hash_algorithm: engine.hashAlgorithm,
      chunk_size: engine.chunkSize,
      node_id: identity.nodeId,
      uptime_seconds: Math.max(0, Math.floor((now - identity.startedAt) / 1000)),
    },
    counts: { ...engine.counts },
    sizes: {
      disk_total: disk.diskTotal,
      kv_file: disk.kvFile,
      logical_data: engine.sizes.logicalData,
      chunk_data: engine.sizes.chunkData,
      void_space: engine.sizes.voidSpace,
      dedup_savings: engine.sizes.dedupSavings,
    },
    throughput: {
      writes_per_sec: peak(t.writesPerSec),
      reads_per_sec: peak(t.readsPerSec),
      bytes_written_per_sec: rates(t.bytesWrittenPerSec),
      bytes_read_per_sec: rates(t.bytesReadPerSec),
    },
    latency: {
      write: { ...l.write },
      read: { ...l.read },
      query: { ...l.query },
      flush: { ...l.flush },
    },
    health: {
      disk_usage_percent: disk.diskUsagePercent,
      kv_fill_ratio: disk.diskTotal === 0 ? 0 : round(disk.kvFile / disk.diskTotal),
      dedup_hit_rate: round(engine.health.dedupHitRate),
      gc_last_reclaimed_bytes: engine.health.gcLastReclaimedBytes,
      write_buffer_depth: engine.health.writeBufferDepth,
    },
  }
}
