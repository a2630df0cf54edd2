import type { Task } from './task'
import { matchesTaskFilter, type TaskStore } from './task-store'

/**
 * A {@link TaskStore} in memory, for tests and for embedded use without persistence.
 * Records are cloned on the way in and out, as a real store's serialisation would.
 *
 * @example
 * const scheduler = createScheduler({ taskStore: createMemoryTaskStore() })
 */
export function createMemoryTaskStore(): TaskStore {
  const tasks = new Map<string, Task>()
  return {
    get: async (id) => {
      const task = tasks.get(id)
      return task === undefined ? undefined : structuredClone(task)
    },
    list: async (filter) =>
      [...tasks.values()]
        .filter((task) => matchesTaskFilter(task, filter))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((task) => structuredClone(task)),
    put: async (task) => {
      tasks.set(task.id, structuredClone(task))
    },
    putIf: async (task, expected) => {
      // Compared as JSON text, as a key-value store compares the bytes it holds.
      const stored = tasks.get(task.id)
      if (JSON.stringify(stored) !== JSON.stringify(expected)) return false
      tasks.set(task.id, structuredClone(task))
      return true
    },
    delete: async (ids) => {
      for (const id of ids) tasks.delete(id)
    },
  }
}
