/** A scheduled callback that can be cancelled. */
export interface TimerHandle {
  /** Cancels the callback; does nothing once it ran or was cancelled. */
  cancel(): void
}

/**
 * Time as the events library sees it: the current time and one-shot timers. Inject a fake
 * (`createFakeClock` from `@svcdb/events/testing`) to drive pings, pulses and retries in tests.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /** Runs `callback` once, `ms` milliseconds from now. */
  setTimer(ms: number, callback: () => void): TimerHandle
}

/**
 * The wall clock and the runtime's `setTimeout`. Timers are unref'ed where the runtime allows
 * it (Node), so a pending ping or pulse never keeps a process alive on its own.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, callback) {
    const timer: unknown = setTimeout(callback, ms)
    const unref = (timer as { unref?: () => void }).unref
    if (typeof unref === 'function') unref.call(timer)
    return { cancel: () => clearTimeout(timer as Parameters<typeof clearTimeout>[0]) }
  },
}
