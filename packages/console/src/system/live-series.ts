import type { ChartSample } from './chart-points'
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
 * read after each of them, each series in a ring buffer so memory stays bounded.
 */
export class LiveSeries {
  readonly #writes: RingBuffer<ChartSample>
  readonly #reads: RingBuffer<ChartSample>
  readonly #writeLatency: RingBuffer<ChartSample>
  readonly #readLatency: RingBuffer<ChartSample>

  constructor(capacity = LIVE_SAMPLES) {
    this.#writes = new RingBuffer(capacity)
    this.#reads = new RingBuffer(capacity)
    this.#writeLatency = new RingBuffer(capacity)
    this.#readLatency = new RingBuffer(capacity)
  }

  /** Adds the 1-minute operation rates of a `metrics` event sent at `time` (Unix ms). */
  addThroughput(time: number, throughput: ThroughputLike): void {
    this.#writes.push({ time, value: throughput.writes_per_sec['1m'] })
    this.#reads.push({ time, value: throughput.reads_per_sec['1m'] })
  }

  /** Adds the p95 write and read latencies (ms) of stats read at `time`. */
  addLatency(time: number, latency: LatencyLike): void {
    this.#writeLatency.push({ time, value: latency.write.p95 })
    this.#readLatency.push({ time, value: latency.read.p95 })
  }

  /** Copies of every series, oldest sample first. */
  snapshot(): {
    writes: ChartSample[]
    reads: ChartSample[]
    writeLatency: ChartSample[]
    readLatency: ChartSample[]
  } {
    return {
      writes: this.#writes.toArray(),
      reads: this.#reads.toArray(),
      writeLatency: this.#writeLatency.toArray(),
      readLatency: this.#readLatency.toArray(),
    }
  }
}
