/** Rates per second, smoothed over 1, 5 and 15 minutes like Unix load averages. */
export interface Rates {
  m1: number
  m5: number
  m15: number
}

/** {@link Rates} plus the highest 5-second rate seen in the last minute. */
export interface PeakRates extends Rates {
  peak1m: number
}

const TICK_MS = 5_000
const ALPHAS = [1, 5, 15].map((minutes) => 1 - Math.exp(-TICK_MS / (minutes * 60_000)))

/**
 * Exponentially weighted moving averages of an event rate, advanced lazily in 5-second ticks
 * on every `mark` and `read`, so it needs no timer and costs O(1).
 */
export class RateMeter {
  private averages = [0, 0, 0]
  private pending = 0
  private tickStart: number
  private recent: number[] = []

  constructor(private readonly now: () => number) {
    this.tickStart = now()
  }

  /** Records `count` events (or bytes). */
  mark(count = 1): void {
    this.advance()
    this.pending += count
  }

  read(): PeakRates {
    this.advance()
    const [m1, m5, m15] = this.averages as [number, number, number]
    return { m1, m5, m15, peak1m: Math.max(0, ...this.recent) }
  }

  private advance(): void {
    const elapsed = this.now() - this.tickStart
    if (elapsed < TICK_MS) return
    const ticks = Math.floor(elapsed / TICK_MS)
    // The first tick carries what was counted; later ones (idle time) carry nothing.
    for (let t = 0; t < Math.min(ticks, 200); t++) {
      const rate = t === 0 ? this.pending / (TICK_MS / 1000) : 0
      this.averages = this.averages.map((avg, i) => avg + (ALPHAS[i] as number) * (rate - avg))
      this.recent.push(rate)
    }
    if (ticks >= 200) this.averages = [0, 0, 0]
    this.recent = this.recent.slice(-12)
    this.pending = 0
    this.tickStart += ticks * TICK_MS
  }
}
