import type { NodeInfo } from '@svcdb/engine'
import type { OpenedDatabase } from './open-database'

/** How often a node records that it is alive, well within the cluster's 30 s staleness window. */
export const NODE_HEARTBEAT_MS = 5_000

/** What {@link startNodeHeartbeat} reports. */
export interface NodeHeartbeatOptions {
  version: string
  /** The node's URL, known once it listens (empty before). */
  url: () => string
  onError: (err: unknown) => void
  /** Hears that a live node already reports this node's id (before the first heartbeat). */
  onDuplicateId: (other: NodeInfo) => void
}

/**
 * Records this node in the cluster now and every {@link NODE_HEARTBEAT_MS} (its URL and
 * version), and, on a shared database, keeps the synchronous `db.stats()` behind the metrics
 * pulse at most that old. Resolves after the first heartbeat landed (it rejects when that one
 * fails: peers would take a node they never heard from for dead, and its tasks over) with the
 * function that stops both. A beat still running when the next is due is not doubled. An
 * embedded server's cluster is itself alone, so nothing runs there.
 */
export async function startNodeHeartbeat(
  opened: Pick<OpenedDatabase, 'cluster' | 'db' | 'shared'>,
  options: NodeHeartbeatOptions,
): Promise<() => Promise<void>> {
  if (!opened.shared) return () => Promise.resolve()
  const beat = async () => {
    const url = options.url()
    await Promise.all([
      opened.cluster.heartbeat({ version: options.version, ...(url === '' ? {} : { url }) }),
      opened.db.refresh(),
    ])
  }
  // Node ids tell whose tasks are whose: two live nodes with one id would take over each
  // other's work. A node restarted within the staleness window also shows here.
  const same = (await opened.cluster.nodes()).find(
    (node) => node.id === opened.cluster.nodeId && node.alive,
  )
  if (same !== undefined) options.onDuplicateId(same)
  await beat()
  let inFlight: Promise<void> | undefined
  const timer = setInterval(() => {
    inFlight ??= beat()
      .catch(options.onError)
      .finally(() => {
        inFlight = undefined
      })
  }, NODE_HEARTBEAT_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await inFlight
  }
}
