/** Cancels a scheduled callback; does nothing once it ran or was cancelled. */
export type CancelTimer = () => void

/**
 * Time as the events library sees it: the current time and one-shot timers. Inject a fake
 * (`createFakeClock` from `@svcdb/events/testing`) to drive pings, pulses and retries in tests.
 * The shape matches the scheduler's `Clock`, so one clock object serves both.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /** Runs `callback` once, `delayMs` milliseconds from now; returns its cancel function. */
  setTimer(callback: () => void, delayMs: number): CancelTimer
}

/** Longest delay `setTimeout` honours (2^31 − 1 ms); longer waits are chained. */
const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * The wall clock and the runtime's `setTimeout`. Timers are unref'ed where the runtime allows
 * it (Node), so a pending ping or pulse never keeps a process alive on its own.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const due = Date.now() + Math.max(0, delayMs)
    let timer: ReturnType<typeof setTimeout> | undefined
    const arm = () => {
      const left = due - Date.now()
      timer =
        left > MAX_TIMEOUT_MS
          ? setTimeout(arm, MAX_TIMEOUT_MS)
          : setTimeout(callback, Math.max(0, left))
      const unref = (timer as { unref?: () => void }).unref
      if (typeof unref === 'function') unref.call(timer)
    }
    arm()
    return () => clearTimeout(timer)
  },
}
