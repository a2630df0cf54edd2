import type { Clock } from '../clock'

/** A {@link Clock} that moves only when told to. */
export interface ManualClock extends Clock {
  /** Moves the time forward by `ms`. */
  advance(ms: number): void
  /** Sets the time (Unix milliseconds). */
  set(now: number): void
}

/**
 * A clock for deterministic tests of expiry and rate limits.
 *
 * @example
 * const clock = createManualClock(Date.UTC(2030, 0, 1))
 * clock.advance(15 * 60_000)
 */
export function createManualClock(start = 1_700_000_000_000): ManualClock {
  let now = start
  return {
    now: () => now,
    advance(ms) {
      now += ms
    },
    set(value) {
      now = value
    },
  }
}
