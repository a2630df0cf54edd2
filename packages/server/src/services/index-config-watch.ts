import type { SequencedChange } from '@svcdb/engine'
import type { EventBus } from '@svcdb/events'
import type { TaskRunner } from '@svcdb/scheduler'

const CONFIG_SUFFIX = '/.svcdb/indexes.json'

/** The directory whose index configuration `path` is, if it is one. */
export function indexedDirectoryOf(path: string): string | undefined {
  if (!path.endsWith(CONFIG_SUFFIX)) return undefined
  const dir = path.slice(0, -CONFIG_SUFFIX.length)
  return dir === '' ? '/' : dir
}

/**
 * Reacts to a change of HEAD's index configurations (DESIGN §3.8): publishes
 * `indexes_changed {path}` and, for a configuration written (not deleted), enqueues a
 * `reindex` of its directory after cancelling any pending or running one for the same path.
 * Returns a promise for tests; errors go to `onError`.
 */
export function createIndexConfigWatch(deps: {
  bus: EventBus
  tasks: TaskRunner
  onError: (err: unknown) => void
  /**
   * With several nodes, each sees every change: true for the one node that enqueues the
   * reindex of `dir` for the change at version-log position `seq`. Every node when absent.
   */
  claimReindex?: (dir: string, seq: number) => Promise<boolean>
}): (change: SequencedChange) => Promise<void> {
  return async (change) => {
    if (change.type !== 'entries_created' && change.type !== 'entries_deleted') return
    if (change.fork !== undefined) return
    const dirs = new Set<string>()
    for (const entry of change.entries) {
      const dir = indexedDirectoryOf(entry.path)
      if (dir !== undefined) dirs.add(dir)
    }
    for (const dir of dirs) {
      if (!deps.bus.closed) deps.bus.publish('indexes_changed', { path: dir })
      if (change.type === 'entries_deleted') continue
      try {
        if (deps.claimReindex !== undefined && !(await deps.claimReindex(dir, change.seq))) continue
        const open = await deps.tasks.list({ status: ['pending', 'running'] })
        for (const task of open)
          if (task.taskType === 'reindex' && task.args.path === dir)
            await deps.tasks.cancel(task.id)
        await deps.tasks.enqueue('reindex', { path: dir })
      } catch (err) {
        deps.onError(err)
      }
    }
  }
}
