/**
 * A readers-writer gate for async work: any number of `shared` holders, or one `exclusive`
 * holder. A waiting exclusive holder blocks new shared ones, so it is never starved.
 */
export interface ExclusiveGate {
  shared<T>(work: () => Promise<T>): Promise<T>
  exclusive<T>(work: () => Promise<T>): Promise<T>
}

/** Creates an {@link ExclusiveGate}. */
export function createExclusiveGate(): ExclusiveGate {
  let sharedHolders = 0
  let exclusiveHeld = false
  let exclusiveWaiting = 0
  const wakers = new Set<() => void>()
  const wake = () => {
    for (const w of [...wakers]) w()
  }
  // `claim` checks and takes the gate in one synchronous step, so two waiters woken together
  // can never both get it.
  const until = (claim: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!claim()) return
        wakers.delete(check)
        resolve()
      }
      wakers.add(check)
      check()
    })
  return {
    async shared(work) {
      await until(() => {
        if (exclusiveHeld || exclusiveWaiting > 0) return false
        sharedHolders++
        return true
      })
      try {
        return await work()
      } finally {
        sharedHolders--
        wake()
      }
    },
    async exclusive(work) {
      exclusiveWaiting++
      await until(() => {
        if (exclusiveHeld || sharedHolders > 0) return false
        exclusiveWaiting--
        exclusiveHeld = true
        return true
      })
      try {
        return await work()
      } finally {
        exclusiveHeld = false
        wake()
      }
    },
  }
}
