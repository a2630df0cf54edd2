import type { ChartSample } from './chart-samples'
import { RingBuffer } from './ring-buffer'

/** The throughput section of a `metrics` event (and of stats) the charts read. */
interface ThroughputLike {
  readonly writes_per_sec: { readonly '1m': number }
  readonly reads_per_sec: { readonly '1m': number }
}

/** The latency section of stats the charts read (the `metrics` event has none). */
interface LatencyLike {
  readonly write: { readonly p95: number }
  readonly read: { readonly p95: number }
}

/** How many samples each chart keeps: an hour at the server's default 15 s interval. */
export const LIVE_SAMPLES = 240

/**
 * The dashboard's chart data: throughput from `metrics` events and latency from the stats
 * read after each of them, each chart's samples in a ring buffer so memory stays bounded.
 */
export class LiveSeries {
  readonly #throughput: RingBuffer<ChartSample>
  readonly #latency: RingBuffer<ChartSample>

  constructor(capacity = LIVE_SAMPLES) {
    this.#throughput = new RingBuffer(capacity)
    this.#latency = new RingBuffer(capacity)
  }

  /** Adds the 1-minute write and read rates of a `metrics` event sent at `time` (Unix ms). */
  addThroughput(time: number, throughput: ThroughputLike): void {
    this.#throughput.push({
      time,
      values: [throughput.writes_per_sec['1m'], throughput.reads_per_sec['1m']],
    })
  }

  /** Adds the p95 write and read latencies (ms) of stats read at `time`. */
  addLatency(time: number, latency: LatencyLike): void {
    this.#latency.push({ time, values: [latency.write.p95, latency.read.p95] })
  }

  /** Copies of both charts' samples (values: write, then read), oldest first. */
  snapshot(): { throughput: ChartSample[]; latency: ChartSample[] } {
    return { throughput: this.#throughput.toArray(), latency: this.#latency.toArray() }
  }
}
