import type { ChartSample } from './chart-samples'
import { RingBuffer } from './ring-buffer'

/** The parts of a `metrics` event (and of stats) the charts read. */
export interface MetricsLike {
  readonly throughput: {
    readonly writes_per_sec: { readonly '1m': number }
    readonly reads_per_sec: { readonly '1m': number }
    readonly bytes_written_per_sec: { readonly '1m': number }
    readonly bytes_read_per_sec: { readonly '1m': number }
  }
  readonly sizes: {
    readonly logical_data: number
    readonly chunk_data: number
    readonly dedup_savings: number
  }
  readonly health: { readonly dedup_hit_rate: number }
}

/** The latency section of stats the charts read (the `metrics` event has none). */
interface LatencyLike {
  readonly write: { readonly p95: number }
  readonly read: { readonly p95: number }
}

/** How many samples each chart keeps: an hour at the server's default 15 s interval. */
export const LIVE_SAMPLES = 240

/** The charts of the dashboard, by name. */
export type LiveChart = 'operations' | 'bytes' | 'sizes' | 'dedup' | 'latency'

const CHARTS: readonly LiveChart[] = ['operations', 'bytes', 'sizes', 'dedup', 'latency']

/**
 * The dashboard's chart data: operations and bytes per second, sizes and dedup from `metrics`
 * events, latency from the stats read after each of them; each chart's samples in a ring
 * buffer so memory stays bounded.
 */
export class LiveSeries {
  readonly #charts: Record<LiveChart, RingBuffer<ChartSample>>

  constructor(capacity = LIVE_SAMPLES) {
    this.#charts = Object.fromEntries(
      CHARTS.map((chart) => [chart, new RingBuffer<ChartSample>(capacity)]),
    ) as Record<LiveChart, RingBuffer<ChartSample>>
  }

  /**
   * Adds a `metrics` event sent at `time` (Unix ms): the 1-minute write and read rates, in
   * operations and in bytes; logical, stored and saved bytes; the dedup hit rate (0 to 1).
   */
  addMetrics(time: number, metrics: MetricsLike): void {
    const { throughput: t, sizes: s } = metrics
    this.#charts.operations.push({
      time,
      values: [t.writes_per_sec['1m'], t.reads_per_sec['1m']],
    })
    this.#charts.bytes.push({
      time,
      values: [t.bytes_written_per_sec['1m'], t.bytes_read_per_sec['1m']],
    })
    this.#charts.sizes.push({ time, values: [s.logical_data, s.chunk_data, s.dedup_savings] })
    this.#charts.dedup.push({ time, values: [metrics.health.dedup_hit_rate] })
  }

  /** Adds the p95 write and read latencies (ms) of stats read at `time`. */
  addLatency(time: number, latency: LatencyLike): void {
    this.#charts.latency.push({ time, values: [latency.write.p95, latency.read.p95] })
  }

  /** Copies of every chart's samples (values in the order `addMetrics` says), oldest first. */
  snapshot(): Record<LiveChart, ChartSample[]> {
    return {
      operations: this.#charts.operations.toArray(),
      bytes: this.#charts.bytes.toArray(),
      sizes: this.#charts.sizes.toArray(),
      dedup: this.#charts.dedup.toArray(),
      latency: this.#charts.latency.toArray(),
    }
  }
}
