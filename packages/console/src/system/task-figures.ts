/** The fields of a task the list shows (as `client.tasks.list()` answers them). */
export interface TaskLike {
  readonly status: string
  readonly progress: number
  readonly eta_ms?: number | undefined
}

/** Statuses of a task that has not ended yet, so the list keeps polling while one is there. */
const ACTIVE = new Set(['pending', 'running'])

/** True when the task has not ended (pending or running). */
export function isActive(task: TaskLike): boolean {
  return ACTIVE.has(task.status)
}

/** True when any of `tasks` has not ended. */
export function anyActive(tasks: readonly TaskLike[]): boolean {
  return tasks.some(isActive)
}

/** The progress as a whole percentage, 0 to 100 (the server reports 0 to 1). */
export function progressPercent(task: TaskLike): number {
  const p = Number.isFinite(task.progress) ? task.progress : 0
  return Math.round(Math.min(1, Math.max(0, p)) * 100)
}

/** The time left as `1 h 2 min`, `3 min 4 s` or `5 s`; empty when unknown or ended. */
export function formatEta(task: TaskLike): string {
  if (!isActive(task) || task.eta_ms === undefined || !Number.isFinite(task.eta_ms)) return ''
  const seconds = Math.max(0, Math.round(task.eta_ms / 1000))
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (h > 0) return `${h} h ${m} min`
  if (m > 0) return `${m} min ${s} s`
  return `${s} s`
}
