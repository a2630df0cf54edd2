/** Latency percentiles in milliseconds. */
export interface Percentiles {
  p50: number
  p95: number
  p99: number
}

/**
 * The last N latency samples in a ring buffer; percentiles are read from a sorted copy, a
 * fixed cost whatever the load.
 */
export class LatencyWindow {
  private readonly samples: Float64Array
  private count = 0
  private next = 0

  constructor(size = 1024) {
    this.samples = new Float64Array(size)
  }

  record(ms: number): void {
    this.samples[this.next] = ms
    this.next = (this.next + 1) % this.samples.length
    this.count = Math.min(this.count + 1, this.samples.length)
  }

  read(): Percentiles {
    if (this.count === 0) return { p50: 0, p95: 0, p99: 0 }
    const sorted = this.samples.slice(0, this.count).sort()
    const at = (q: number) => sorted[Math.min(this.count - 1, Math.floor(q * this.count))] as number
    return { p50: at(0.5), p95: at(0.95), p99: at(0.99) }
  }
}
