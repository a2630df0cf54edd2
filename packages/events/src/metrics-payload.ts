/** The `counts` section of stats and of the `metrics` event. */
export interface MetricsCounts {
  readonly files: number
  readonly directories: number
  readonly symlinks: number
  readonly chunks: number
  readonly snapshots: number
  readonly forks: number
}

/** The `sizes` section (bytes) of stats and of the `metrics` event. */
export interface MetricsSizes {
  readonly disk_total: number
  readonly kv_file: number
  readonly logical_data: number
  readonly chunk_data: number
  readonly void_space: number
  readonly dedup_savings: number
}

/** A rate over the last 1, 5 and 15 minutes. */
export interface RateWindows {
  readonly '1m': number
  readonly '5m': number
  readonly '15m': number
}

/** A rate over the last 1, 5 and 15 minutes plus the highest 1-minute rate seen. */
export interface PeakRateWindows extends RateWindows {
  readonly peak_1m: number
}

/** The `throughput` section of stats and of the `metrics` event. */
export interface MetricsThroughput {
  readonly writes_per_sec: PeakRateWindows
  readonly reads_per_sec: PeakRateWindows
  readonly bytes_written_per_sec: RateWindows
  readonly bytes_read_per_sec: RateWindows
}

/** The `health` section of the `metrics` event: the stats health section without `gc_last_reclaimed_bytes`. */
export interface MetricsHealth {
  readonly disk_usage_percent: number
  readonly kv_fill_ratio: number
  readonly dedup_hit_rate: number
  readonly write_buffer_depth: number
}

/** Payload of the `metrics` event: stats sections `counts`, `sizes`, `throughput` and a reduced `health`; no latency. */
export interface MetricsPayload {
  readonly counts: MetricsCounts
  readonly sizes: MetricsSizes
  readonly throughput: MetricsThroughput
  readonly health: MetricsHealth
}

const rates = (w: RateWindows): RateWindows => ({ '1m': w['1m'], '5m': w['5m'], '15m': w['15m'] })
const peakRates = (w: PeakRateWindows): PeakRateWindows => ({ ...rates(w), peak_1m: w.peak_1m })

/**
 * Builds the `metrics` payload from stats, copying exactly the fields of the spec's layout. A
 * whole stats snapshot may be passed: its other sections (`identity`, `latency`, `sync`) and
 * `health.gc_last_reclaimed_bytes` never reach the event.
 *
 * @example
 * bus.publish('metrics', toMetricsPayload(await engine.stats()))
 */
export function toMetricsPayload(stats: MetricsPayload): MetricsPayload {
  const { counts: c, sizes: s, throughput: t, health: h } = stats
  return {
    counts: {
      files: c.files,
      directories: c.directories,
      symlinks: c.symlinks,
      chunks: c.chunks,
      snapshots: c.snapshots,
      forks: c.forks,
    },
    sizes: {
      disk_total: s.disk_total,
      kv_file: s.kv_file,
      logical_data: s.logical_data,
      chunk_data: s.chunk_data,
      void_space: s.void_space,
      dedup_savings: s.dedup_savings,
    },
    throughput: {
      writes_per_sec: peakRates(t.writes_per_sec),
      reads_per_sec: peakRates(t.reads_per_sec),
      bytes_written_per_sec: rates(t.bytes_written_per_sec),
      bytes_read_per_sec: rates(t.bytes_read_per_sec),
    },
    health: {
      disk_usage_percent: h.disk_usage_percent,
      kv_fill_ratio: h.kv_fill_ratio,
      dedup_hit_rate: h.dedup_hit_rate,
      write_buffer_depth: h.write_buffer_depth,
    },
  }
}
