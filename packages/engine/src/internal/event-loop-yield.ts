/**
 * A pause to call in a long loop: it gives the event loop a turn once `sliceMs` have passed
 * since the last one, and costs nothing otherwise. Walks over cached objects only await
 * settled promises (microtasks), which never let timers, I/O or other requests run; without
 * a turn now and then, one large listing held the server for seconds.
 *
 * @example
 * const pause = createEventLoopYield()
 * for await (const entry of walk) { await pause(); ... }
 */
export function createEventLoopYield(sliceMs = 10): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < sliceMs) return
    await new Promise<void>((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}
