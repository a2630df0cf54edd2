import { SchedulerError } from '../errors'
import { parseTaskArgs } from '../task-args'
import type { TaskHandler } from '../task-handler'

/** A registered task type: its handler and its argument parser. */
export interface RegisteredHandler {
  handler: TaskHandler<never>
  parseArgs: (args: unknown) => Record<string, unknown>
}

/** The runner's handlers, by task type. */
export interface HandlerRegistry {
  /** @throws {TypeError} when `taskType` is empty or taken. */
  add(taskType: string, handler: TaskHandler<never>, parseArgs?: (args: unknown) => unknown): void
  has(taskType: string): boolean
  /** The handler of `taskType`, or `undefined`. */
  find(taskType: string): RegisteredHandler | undefined
  /** @throws {SchedulerError} `UNKNOWN_TASK_TYPE`, naming the registered types. */
  require(taskType: string): RegisteredHandler
}

/** Makes an empty {@link HandlerRegistry}. */
export function createHandlerRegistry(): HandlerRegistry {
  const handlers = new Map<string, RegisteredHandler>()
  return {
    add(taskType, handler, parseArgs) {
      if (typeof taskType !== 'string' || taskType === '') {
        throw new TypeError('a task type must be a non-empty string')
      }
      if (handlers.has(taskType)) {
        throw new TypeError(
          `a handler for task type ${JSON.stringify(taskType)} is already registered`,
        )
      }
      const parse = parseArgs ?? ((args: unknown) => parseTaskArgs(taskType, args))
      handlers.set(taskType, {
        handler,
        parseArgs: parse as (args: unknown) => Record<string, unknown>,
      })
    },
    has: (taskType) => handlers.has(taskType),
    find: (taskType) => handlers.get(taskType),
    require(taskType) {
      const found = handlers.get(taskType)
      if (found) return found
      const known = [...handlers.keys()].sort().join(', ') || 'none'
      throw new SchedulerError(
        'UNKNOWN_TASK_TYPE',
        `no handler is registered for task type ${JSON.stringify(taskType)} (registered: ${known})`,
      )
    },
  }
}
