/**
 * Where the library reads the time. Inject a manual clock in tests so expiry, token lifetimes
 * and rate-limit windows are deterministic.
 */
export interface Clock {
  /** Unix milliseconds. */
  now(): number
}

/** The wall clock (`Date.now()`). */
export const systemClock: Clock = { now: () => Date.now() }
