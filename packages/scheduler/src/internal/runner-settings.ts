import type { Clock } from '../clock'
import { systemClock } from '../clock'
import { createMemoryTaskStore } from '../memory-task-store'
import type { TaskStore } from '../task-store'
import { assertRetention } from '../task-retention'
import type { TaskRetention } from '../task-retention'
import type { TaskRunnerOptions } from '../task-runner-types'
import { guardTaskStore } from './guarded-stores'

const DEFAULT_POLL_MS = 5_000

/** {@link TaskRunnerOptions} checked, with the defaults filled in. */
export interface RunnerSettings {
  concurrency: number
  progressInterval: number
  retention: TaskRetention
  /** How often other nodes' work is looked at; undefined on a single node without `pollMs`. */
  pollMs: number | undefined
  clock: Clock
  store: TaskStore
}

/** Checks `options` (`RangeError`/`TypeError` naming the bad one) and fills in the defaults. */
export function runnerSettings(options: TaskRunnerOptions): RunnerSettings {
  const concurrency = options.concurrency ?? 1
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number >= 1, got ${String(concurrency)}`)
  }
  const progressInterval = options.progressWriteIntervalMs ?? 1000
  if (!(progressInterval >= 0)) {
    throw new RangeError(`progressWriteIntervalMs must be >= 0, got ${String(progressInterval)}`)
  }
  const retention = options.retention ?? {}
  assertRetention(retention)
  const pollMs = options.pollMs ?? (options.nodeId === undefined ? undefined : DEFAULT_POLL_MS)
  if (pollMs !== undefined && !(pollMs >= 1 && pollMs <= 2_147_483_647)) {
    throw new RangeError(`pollMs must be from 1 to 2^31-1, got ${String(pollMs)}`)
  }
  const store = guardTaskStore(options.store ?? createMemoryTaskStore())
  if (options.nodeId !== undefined && store.putIf === undefined) {
    throw new TypeError('a runner with a nodeId needs a task store with putIf (compare-and-set)')
  }
  return {
    concurrency,
    progressInterval,
    retention,
    pollMs,
    clock: options.clock ?? systemClock,
    store,
  }
}
