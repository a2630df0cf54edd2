import { isSchedulerError } from '../errors'
import type { SchedulerError } from '../errors'
import { createMemoryTaskStore } from '../memory-task-store'
import type { Task } from '../task'
import { createTaskRunner } from '../task-runner'
import type { TaskRunnerOptions } from '../task-runner-types'
import { createControlledHandler } from './controlled-handler'
import { createFakeClock } from './fake-clock'

/** A runner on a fake clock with a `work` type whose runs the test ends by hand. */
export function createRunnerHarness(options: Partial<TaskRunnerOptions> = {}) {
  const clock = createFakeClock()
  const store = options.store ?? createMemoryTaskStore()
  const changes: Array<Pick<Task, 'id' | 'status'>> = []
  const runner = createTaskRunner({
    clock,
    store,
    onChange: (task) => changes.push({ id: task.id, status: task.status }),
    ...options,
  })
  const work = createControlledHandler()
  runner.register('work', work.handler)
  const statuses = (id: string) => changes.filter((c) => c.id === id).map((c) => c.status)
  return { clock, store, runner, work, changes, statuses }
}

/** The SchedulerError a promise rejects with; fails when it resolves or rejects otherwise. */
export async function schedulerRejection(promise: Promise<unknown>): Promise<SchedulerError> {
  try {
    await promise
  } catch (err) {
    if (isSchedulerError(err)) return err
    throw err
  }
  throw new Error('expected a rejection')
}
