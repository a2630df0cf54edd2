/**
 * Time and timers, injected so that tests run on a fake clock (`createFakeClock` from
 * `@svcdb/scheduler/testing`) and finish at once.
 */
export interface Clock {
  /** The current time, Unix milliseconds. */
  now(): number
  /**
   * Calls `callback` once, `delayMs` milliseconds from now, and returns a function that
   * cancels the call if it has not happened yet.
   */
  setTimer(callback: () => void, delayMs: number): () => void
}

/** Node refuses delays above 2^31-1 ms (it fires them after 1 ms instead), so long waits are chained. */
const MAX_TIMER_DELAY_MS = 2_147_483_647

/**
 * The real clock: `Date.now()` and `setTimeout`. Its timers are unref'd, so a pending
 * timer never keeps a process alive on its own.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    let handle: ReturnType<typeof setTimeout> | undefined
    const due = Date.now() + Math.max(0, delayMs)
    const arm = (): void => {
      const left = due - Date.now()
      if (left > MAX_TIMER_DELAY_MS) {
        handle = setTimeout(arm, MAX_TIMER_DELAY_MS)
      } else {
        handle = setTimeout(callback, Math.max(0, left))
      }
      handle.unref()
    }
    arm()
    return () => clearTimeout(handle)
  },
}
