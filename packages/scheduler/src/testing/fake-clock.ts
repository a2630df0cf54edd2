import type { Clock } from '../clock'

/** A {@link Clock} that only moves when told to, for tests that cover hours in milliseconds. */
export interface FakeClock extends Clock {
  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way, in order, each
   * at its own time, and letting the promise chains it starts settle before the next.
   */
  advance(ms: number): Promise<void>
  /** Lets pending promise chains settle without moving time. */
  flush(): Promise<void>
  /** How many timers are set and not yet fired or cancelled. */
  readonly pendingTimers: number
}

interface FakeTimer {
  due: number
  seq: number
  callback: () => void
}

/** One macrotask turn drains every microtask queued before it; a few turns cover chains that hop. */
const FLUSH_TURNS = 5

/**
 * Makes a {@link FakeClock} reading `startMs` (default 2026-01-01T00:00:00Z).
 *
 * @example
 * const clock = createFakeClock()
 * const scheduler = createScheduler({ clock })
 * await clock.advance(24 * 60 * 60 * 1000) // a day of cron ticks, at once
 */
export function createFakeClock(startMs: number = Date.UTC(2026, 0, 1)): FakeClock {
  let now = startMs
  let seq = 0
  const timers = new Set<FakeTimer>()

  const flush = async (): Promise<void> => {
    for (let turn = 0; turn < FLUSH_TURNS; turn++) {
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  const earliestDue = (limit: number): FakeTimer | undefined => {
    let found: FakeTimer | undefined
    for (const timer of timers) {
      if (timer.due > limit) continue
      if (!found || timer.due < found.due || (timer.due === found.due && timer.seq < found.seq)) {
        found = timer
      }
    }
    return found
  }

  return {
    now: () => now,
    setTimer(callback, delayMs) {
      const timer = { due: now + Math.max(0, delayMs), seq: seq++, callback }
      timers.add(timer)
      return () => {
        timers.delete(timer)
      }
    },
    async advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`advance takes a non-negative number, got ${ms}`)
      const target = now + ms
      await flush()
      for (let timer = earliestDue(target); timer; timer = earliestDue(target)) {
        timers.delete(timer)
        now = Math.max(now, timer.due)
        timer.callback()
        await flush()
      }
      now = target
      await flush()
    },
    flush,
    get pendingTimers() {
      return timers.size
    },
  }
}
