import type { TaskContext, TaskHandler } from '../task-handler'

/** One run of a {@link ControlledHandler}, ended by the test. */
export interface ControlledRun {
  /** What the runner handed to the handler: id, args, signal, reportProgress. */
  readonly context: TaskContext
  /** Ends the run successfully; `value` becomes the task's result. */
  resolve(value?: unknown): void
  /** Ends the run by throwing `error`. */
  reject(error: unknown): void
}

/** A task handler whose runs last until the test ends them, for observing running tasks. */
export interface ControlledHandler {
  /** Register this with the runner. */
  readonly handler: TaskHandler
  /** The latest run of each task id. */
  readonly runs: ReadonlyMap<string, ControlledRun>
  /** Task ids in the order their runs started (a task run twice appears twice). */
  readonly order: readonly string[]
  /** The most runs that were in progress at once. */
  readonly peak: number
  /** The latest run of task `id`; throws when it has not started. */
  run(id: string): ControlledRun
}

/** Options of {@link createControlledHandler}. */
export interface ControlledHandlerOptions {
  /** End a run by throwing its signal's reason as soon as the signal aborts (default false). */
  endOnAbort?: boolean
}

/**
 * Makes a {@link ControlledHandler}.
 *
 * @example
 * const work = createControlledHandler({ endOnAbort: true })
 * runner.register('gc', work.handler)
 * const task = await runner.enqueue('gc', {})
 * await clock.flush()
 * work.run(task.id).context.reportProgress(0.5)
 * await runner.cancel(task.id) // the run throws CANCELLED; the task stays cancelled
 */
export function createControlledHandler(options: ControlledHandlerOptions = {}): ControlledHandler {
  const runs = new Map<string, ControlledRun>()
  const order: string[] = []
  let current = 0
  let peak = 0
  const handler: TaskHandler = (context) =>
    new Promise((resolve, reject) => {
      current += 1
      peak = Math.max(peak, current)
      order.push(context.id)
      let ended = false
      const end = (finish: () => void): void => {
        if (ended) return
        ended = true
        current -= 1
        finish()
      }
      const run: ControlledRun = {
        context,
        resolve: (value) => end(() => resolve(value)),
        reject: (error) => end(() => reject(error)),
      }
      runs.set(context.id, run)
      if (options.endOnAbort) {
        context.signal.addEventListener('abort', () => run.reject(context.signal.reason), {
          once: true,
        })
      }
    })
  return {
    handler,
    runs,
    order,
    get peak() {
      return peak
    },
    run(id) {
      const found = runs.get(id)
      if (!found) throw new Error(`task ${id} has not started`)
      return found
    },
  }
}
