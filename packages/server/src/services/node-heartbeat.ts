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
 * pulse at most that old. Resolves after the first heartbeat with the function that stops
 * both; an embedded server's cluster is itself alone, so nothing runs there.
 */
export async function startNodeHeartbeat(
  opened: Pick<OpenedDatabase, 'cluster' | 'db' | 'shared'>,
  options: NodeHeartbeatOptions,
): Promise<() => Promise<void>> {
  if (!opened.shared) return () => Promise.resolve()
  let inFlight: Promise<void> = Promise.resolve()
  const beat = () => {
    const url = options.url()
    inFlight = Promise.all([
      opened.cluster.heartbeat({ version: options.version, ...(url === '' ? {} : { url }) }),
      opened.db.refresh(),
    ]).then(
      () => undefined,
      (err: unknown) => options.onError(err),
    )
    return inFlight
  }
  // Node ids tell whose tasks are whose: two live nodes with one id would take over each
  // other's work. A node restarted within the staleness window also shows here.
  try {
    const same = (await opened.cluster.nodes()).find(
      (node) => node.id === opened.cluster.nodeId && node.alive,
    )
    if (same !== undefined) options.onDuplicateId(same)
  } catch (err) {
    options.onError(err)
  }
  // Other nodes take a node they have not heard from for dead (and its tasks over): beat once
  // before this one claims anything.
  await beat()
  const timer = setInterval(beat, NODE_HEARTBEAT_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await inFlight
  }
}
