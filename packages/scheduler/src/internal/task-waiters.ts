import { isTerminalStatus, type Task } from '../task'

/** Promises that resolve when a task reaches a final status. */
export interface TaskWaiters {
  /** Tells every waiter about a stored change. */
  notify(task: Task): void
  /**
   * Resolves with task `id` once it is completed, failed or cancelled: at once if `current`
   * finds it so, else on the matching {@link TaskWaiters.notify}. Rejects when `current` does
   * or `signal` aborts.
   */
  wait(id: string, current: () => Promise<Task>, signal?: AbortSignal): Promise<Task>
  /** The ids somebody waits for now. */
  ids(): Set<string>
}

/** Makes an empty {@link TaskWaiters}. */
export function createTaskWaiters(): TaskWaiters {
  const waiters = new Set<(task: Task) => void>()
  const waited = new Map<string, number>()
  const count = (id: string, by: number): void => {
    const n = (waited.get(id) ?? 0) + by
    if (n > 0) waited.set(id, n)
    else waited.delete(id)
  }
  return {
    ids: () => new Set(waited.keys()),
    notify(task) {
      for (const waiter of [...waiters]) waiter(task)
    },
    wait(id, current, signal) {
      return new Promise<Task>((resolve, reject) => {
        const settle = (task: Task | undefined, err?: unknown): void => {
          if (!waiters.delete(onChange)) return
          count(id, -1)
          signal?.removeEventListener('abort', onAbort)
          if (task === undefined) reject(err)
          else resolve(structuredClone(task))
        }
        const onChange = (task: Task): void => {
          if (task.id === id && isTerminalStatus(task.status)) settle(task)
        }
        const onAbort = (): void => settle(undefined, signal?.reason)
        if (signal?.aborted) return reject(signal.reason)
        // Listen before reading, so a change between the two is not missed.
        waiters.add(onChange)
        count(id, 1)
        signal?.addEventListener('abort', onAbort, { once: true })
        current().then(
          (task) => {
            if (isTerminalStatus(task.status)) settle(task)
          },
          (err: unknown) => settle(undefined, err),
        )
      })
    },
  }
}
