import type { Task } from '../task'
import type { TaskStore } from '../task-store'

/** Writes `next` over `expected`, resolving whether it was written. */
export type TaskWrite = (next: Task, expected: Task | undefined) => Promise<boolean>

/**
 * The runner's writes: compare-and-set through `putIf` when runners on other nodes may have
 * written since (`shared`), plain puts when this runner is the store's only writer.
 */
export function createTaskWrite(store: TaskStore, shared: boolean): TaskWrite {
  const { putIf } = store
  if (shared && putIf !== undefined) return (next, expected) => putIf(next, expected)
  return async (next) => {
    await store.put(next)
    return true
  }
}

/** Tries a compare-and-set this many times against fresh reads before giving up. */
export const CAS_ATTEMPTS = 10
