import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import { matchesTaskFilter } from '@svcdb/scheduler'
import type { Task, TaskStore } from '@svcdb/scheduler'
import { encodeKeySegment } from './key-segment'

const TASKS = 'task/'
const taskKey = (id: string) => TASKS + encodeKeySegment(id)

/**
 * The {@link TaskStore} of the server: one JSON record per task in namespace `tasks` of the
 * database's system store, keyed so a range scan returns them ordered by id. Writes are
 * durable when they resolve. `putIf` is a guarded batch on the record's JSON text, so on a
 * database shared by several nodes exactly one of racing claims wins.
 *
 * @example
 * const runner = createTaskRunner({ store: createEngineTaskStore(db) })
 */
export function createEngineTaskStore(db: Database): Required<TaskStore> {
  const system = db.systemStore('tasks')
  return {
    async get(id) {
      const raw = await system.get(taskKey(id))
      return raw === undefined ? undefined : (JSON.parse(raw) as Task)
    },
    async list(filter) {
      const tasks = (await system.entries(TASKS)).map(([, raw]) => JSON.parse(raw) as Task)
      return tasks.filter((task) => matchesTaskFilter(task, filter))
    },
    put: (task) =>
      system.batch([{ type: 'put', key: taskKey(task.id), value: JSON.stringify(task) }]),
    async putIf(task, expected) {
      const key = taskKey(task.id)
      try {
        await system.batch([{ type: 'put', key, value: JSON.stringify(task) }], {
          // The stored text is JSON.stringify of the record written, which a parse round-trips.
          guards: [{ key, expect: expected === undefined ? null : JSON.stringify(expected) }],
        })
        return true
      } catch (err) {
        if (isEngineError(err, 'CONFLICT')) return false
        throw err
      }
    },
    async delete(ids) {
      if (ids.length === 0) return
      await system.batch(ids.map((id) => ({ type: 'del', key: taskKey(id) })))
    },
  }
}
