import type { SchedulerOptions, TaskRunner } from '@svcdb/scheduler'
import type { OpenedDatabase } from './open-database'

/** How long a node has to enqueue a cron slot it claimed before another may take the slot. */
const CRON_CLAIM_TTL_MS = 10 * 60_000

/**
 * The scheduler options that make the nodes sharing a database one scheduler: tasks claimed
 * by one node (recorded as its own, recovered only when it is no longer alive) and each cron
 * slot enqueued by the one node that claimed it. None for an embedded database.
 */
export function clusterSchedulerOptions(
  opened: Pick<OpenedDatabase, 'cluster' | 'leases' | 'shared'>,
): Pick<SchedulerOptions, 'nodeId' | 'isNodeAlive' | 'claimSlot'> {
  if (!opened.shared) return {}
  const { cluster, leases } = opened
  return {
    nodeId: cluster.nodeId,
    isNodeAlive: async (id) => (await cluster.nodes()).some((n) => n.id === id && n.alive),
    async claimSlot(scheduleId, slot) {
      const claim = await leases.claim(`cron:${scheduleId}`, slot, CRON_CLAIM_TTL_MS)
      if (claim === undefined) return false
      // Finished at once: the slot is enqueued at most once, even if this node dies next.
      await claim.finish()
      return true
    },
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
      const claim = await opened.leases.claim(`reindex:${dir}`, seq, CRON_CLAIM_TTL_MS)
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
