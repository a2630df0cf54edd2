import type { Clock } from '../clock'

/** A {@link Clock} that only moves when told to. */
export interface FakeClock extends Clock {
  /**
   * Moves time forward by `ms`, running every timer that falls due on the way in time order
   * (timers scheduled meanwhile included). After each timer, pending promise callbacks get a
   * turn, so async work a timer starts can schedule the next one.
   */
  advance(ms: number): Promise<void>
  /** Timers scheduled and not yet run or cancelled. */
  readonly pendingTimers: number
}

interface FakeTimer {
  readonly due: number
  readonly order: number
  readonly callback: () => void
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Creates a fake clock starting at `start` (Unix ms, default 0).
 *
 * @example
 * const clock = createFakeClock(Date.UTC(2025, 0, 1))
 * const bus = createEventBus({ clock })
 * startHeartbeat({ bus })
 * await clock.advance(15_000) // one heartbeat published
 */
export function createFakeClock(start = 0): FakeClock {
  let now = start
  let order = 0
  const timers = new Set<FakeTimer>()

  const nextDue = (limit: number): FakeTimer | undefined => {
    let next: FakeTimer | undefined
    for (const timer of timers) {
      if (timer.due > limit) continue
      if (
        next === undefined ||
        timer.due < next.due ||
        (timer.due === next.due && timer.order < next.order)
      )
        next = timer
    }
    return next
  }

  return {
    now: () => now,
    setTimer(callback, delayMs) {
      const timer: FakeTimer = { due: now + Math.max(0, delayMs), order: order++, callback }
      timers.add(timer)
      return () => void timers.delete(timer)
    },
    async advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`cannot move time by ${ms} ms`)
      const target = now + ms
      await settle()
      for (let timer = nextDue(target); timer !== undefined; timer = nextDue(target)) {
        timers.delete(timer)
        now = Math.max(now, timer.due)
        timer.callback()
        await settle()
      }
      now = target
    },
    get pendingTimers() {
      return timers.size
    },
  }
}
