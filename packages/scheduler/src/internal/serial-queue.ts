/** Runs async jobs one at a time, in the order they were given. */
export interface SerialQueue {
  /** Runs `job` after every job given before it has settled; settles as `job` does. */
  run<T>(job: () => Promise<T>): Promise<T>
  /** Resolves once every job given so far has settled. */
  idle(): Promise<void>
}

/**
 * Makes a {@link SerialQueue}: the runner and the cron scheduler do every read-modify-write
 * of their store through one, so a cancel, a claim and a finish never interleave.
 */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    run(job) {
      const result = tail.then(job)
      tail = result.catch(() => undefined)
      return result
    },
    idle: () => tail.then(() => undefined),
  }
}
