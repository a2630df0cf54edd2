import type { SchedulerOptions, TaskRunner } from '@svcdb/scheduler'
import type { OpenedDatabase } from './open-database'

/**
 * How long a reindex claim holds while unfinished: a node finishes its claim at once, so this
 * only frees the claim of a node that died between taking and finishing it.
 */
const REINDEX_CLAIM_TTL_MS = 10 * 60_000

/**
 * The scheduler options that make the nodes sharing a database one scheduler: tasks claimed
 * by one node (recorded as its own, recovered only when it is no longer alive), and each cron
 * run enqueued by exactly one node (the scheduler derives its task id from the schedule and
 * the due time and creates it only if absent). None for an embedded database.
 */
export function clusterSchedulerOptions(
  opened: Pick<OpenedDatabase, 'cluster' | 'shared'>,
): Pick<SchedulerOptions, 'nodeId' | 'isNodeAlive'> {
  if (!opened.shared) return {}
  const { cluster } = opened
  return {
    nodeId: cluster.nodeId,
    isNodeAlive: async (id) => (await cluster.nodes()).some((n) => n.id === id && n.alive),
  }
}

/**
 * The claim that makes one node of several enqueue the reindex a changed index configuration
 * asks for (every node sees the change); none for an embedded database, whose node is alone.
 */
export function clusterReindexClaim(opened: Pick<OpenedDatabase, 'leases' | 'shared'>): {
  claimReindex?: (dir: string, seq: number) => Promise<boolean>
} {
  if (!opened.shared) return {}
  return {
    async claimReindex(dir, seq) {
      const claim = await opened.leases.claim(`reindex:${dir}`, seq, REINDEX_CLAIM_TTL_MS)
      if (claim === undefined) return false
      await claim.finish()
      return true
    },
  }
}

/** The least time between two wake-ups of the task runner by other nodes' writes. */
const WAKE_INTERVAL_MS = 1_000

/**
 * Wakes the task runner soon after another node writes (a task enqueued or cancelled there
 * shows within about a second, not at the next poll), at most once per {@link
 * WAKE_INTERVAL_MS}: every commit of every node notifies, and each wake-up reads the task list.
 * Returns the function that stops it.
 */
export function wakeOnOtherNodesWrites(
  opened: Pick<OpenedDatabase, 'watch'>,
  tasks: Pick<TaskRunner, 'wake'>,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let last = 0
  const stopWatch = opened.watch(() => {
    if (timer !== undefined) return
    const wait = Math.max(0, last + WAKE_INTERVAL_MS - Date.now())
    timer = setTimeout(() => {
      timer = undefined
      last = Date.now()
      tasks.wake()
    }, wait)
    timer.unref()
  })
  return () => {
    stopWatch()
    clearTimeout(timer)
  }
}
