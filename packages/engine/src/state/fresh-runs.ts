/**
 * Shares runs of `task` between concurrent callers without ever answering a caller with a run
 * that started before it called: calls share a run that has not started yet; a call arriving
 * while one runs waits for it and shares the next. So a burst of N calls costs two runs, not
 * N, and each caller still sees the store as it was at least when it called.
 */
export function createFreshRuns<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined
  let queued: Promise<T> | undefined
  const start = (): Promise<T> => {
    const run = task()
    running = run
    const settle = (): void => {
      if (running === run) running = undefined
    }
    run.then(settle, settle)
    return run
  }
  return () => {
    if (queued !== undefined) return queued
    if (running === undefined) return start()
    const next = running
      .catch(() => undefined)
      .then(() => {
        queued = undefined
        return start()
      })
    queued = next
    return next
  }
}
