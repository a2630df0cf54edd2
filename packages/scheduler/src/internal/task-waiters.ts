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
}

/** Makes an empty {@link TaskWaiters}. */
export function createTaskWaiters(): TaskWaiters {
  const waiters = new Set<(task: Task) => void>()
  return {
    notify(task) {
      for (const waiter of [...waiters]) waiter(task)
    },
    wait(id, current, signal) {
      return new Promise<Task>((resolve, reject) => {
        const settle = (task: Task | undefined, err?: unknown): void => {
          waiters.delete(onChange)
          signal?.removeEventListener('abort', onAbort)
          if (task === undefined) reject(err)
          else resolve(structuredClone(task))
        }
        const onChange = (task: Task): void => {
          if (task.id === id && isTerminalStatus(task.status)) settle(task)
        }
        const onAbort = (): void => settle(undefined, signal?.reason)
        if (signal?.aborted) return onAbort()
        // Listen before reading, so a change between the two is not missed.
        waiters.add(onChange)
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
