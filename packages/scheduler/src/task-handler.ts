/** What a handler gets for one run of a task. */
export interface TaskContext<A = Record<string, unknown>> {
  /** The task's id. */
  readonly id: string
  readonly taskType: string
  /** The validated, normalised arguments. */
  readonly args: A
  /**
   * Aborted when the task is cancelled (reason: a `SchedulerError` with code `CANCELLED`)
   * or the scheduler stops (code `STOPPED`; the task is run again on the next start). A
   * handler should stop soon after; whatever it then returns or throws, the task ends
   * `cancelled` (or goes back to `pending` on stop).
   */
  readonly signal: AbortSignal
  /**
   * Reports how far the task is, 0 to 1; `eta_ms` is estimated from it. Cheap enough to call
   * often: reads see it at once, the store is written at most once per
   * `progressWriteIntervalMs`.
   *
   * @throws {SchedulerError} `INVALID_PROGRESS` for a value outside 0..1.
   */
  reportProgress(progress: number): void
}

/**
 * Does the work of one task type. Resolving completes the task (the value, if any, becomes the
 * task's JSON `result`); throwing fails it with the error's message.
 *
 * @example
 * const gc: TaskHandler<GcArgs> = async ({ args, signal, reportProgress }) => {
 *   return engine.gc({ dryRun: args.dry_run, signal, onProgress: reportProgress })
 * }
 */
export type TaskHandler<A = Record<string, unknown>> = (context: TaskContext<A>) => unknown
