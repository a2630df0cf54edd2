import * as v from 'valibot'

const rates = v.object({ '1m': v.number(), '5m': v.number(), '15m': v.number() })
const peakRates = v.object({ ...rates.entries, peak_1m: v.number() })
const percentiles = v.object({ p50: v.number(), p95: v.number(), p99: v.number() })
const integer = v.pipe(v.number(), v.integer())

/** `GET /system/stats` (spec "Stats snapshot"); `sync` only while replication is active. */
export const statsResponseSchema = v.object({
  identity: v.object({
    version: v.string(),
    database_path: v.string(),
    hash_algorithm: v.string(),
    chunk_size: integer,
    node_id: integer,
    uptime_seconds: integer,
  }),
  counts: v.object({
    files: integer,
    directories: integer,
    symlinks: integer,
    chunks: integer,
    snapshots: integer,
    forks: integer,
  }),
  sizes: v.object({
    disk_total: integer,
    kv_file: integer,
    logical_data: integer,
    chunk_data: integer,
    void_space: integer,
    dedup_savings: integer,
  }),
  throughput: v.object({
    writes_per_sec: peakRates,
    reads_per_sec: peakRates,
    bytes_written_per_sec: rates,
    bytes_read_per_sec: rates,
  }),
  latency: v.object({
    write: percentiles,
    read: percentiles,
    query: percentiles,
    flush: percentiles,
  }),
  health: v.object({
    disk_usage_percent: v.number(),
    kv_fill_ratio: v.number(),
    dedup_hit_rate: v.number(),
    gc_last_reclaimed_bytes: integer,
    write_buffer_depth: integer,
  }),
  sync: v.optional(
    v.object({
      active_peers: integer,
      failing_peers: integer,
      last_sync_ms: integer,
      sync_lag_entries: v.record(v.string(), integer),
    }),
  ),
})

/** The stats snapshot. */
export type StatsResponse = v.InferOutput<typeof statsResponseSchema>
