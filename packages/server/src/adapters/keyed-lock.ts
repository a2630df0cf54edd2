/** Runs async work one at a time per key; see {@link createKeyedLock}. */
export interface KeyedLock {
  /** Runs `work` once every earlier `run` with the same key has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>
}

/**
 * A per-key mutex: read-modify-write sequences on one record never interleave, while work on
 * different keys runs concurrently. Keys with nothing queued hold no memory.
 */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve()
      const result = previous.then(work, work)
      const tail = result.then(
        () => undefined,
        () => undefined,
      )
      tails.set(key, tail)
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
  }
}
