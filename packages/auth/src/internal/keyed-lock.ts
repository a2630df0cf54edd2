/**
 * Serialises async critical sections per key inside one process: `run('k', fn)` starts `fn`
 * only after every earlier section for `'k'` has settled. Sections on other keys run freely.
 */
export interface KeyedLock {
  run<T>(key: string, section: () => Promise<T>): Promise<T>
}

/** A {@link KeyedLock} whose idle keys take no memory. */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run(key, section) {
      const previous = tails.get(key) ?? Promise.resolve()
      const result = previous.then(section, section)
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
