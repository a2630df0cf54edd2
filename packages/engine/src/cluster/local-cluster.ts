import { EngineError } from '../errors'
import type { Clock } from '../internal/clock'
import type { Cluster, NodeInfo } from './cluster'
import {
  checkHeartbeatInfo,
  checkNodeId,
  checkStaleAfterMs,
  DEFAULT_STALE_AFTER_MS,
} from './cluster-input'

/** Options of {@link createLocalCluster}. */
export interface LocalClusterOptions {
  /** The node's clock, which is the shared clock (default `Date.now`). */
  clock?: Clock
  /** How long after its latest heartbeat the node counts as not alive (default 30 s). */
  staleAfterMs?: number
}

/**
 * The {@link Cluster} of a single process (the embedded server): one node, `nodeId`, whose
 * clock is the shared clock (offset 0). `nodes()` lists it once it has sent a heartbeat.
 * Fails with `INVALID_INPUT` for an empty `nodeId` or a bad `staleAfterMs`.
 *
 * @example
 * const cluster = createLocalCluster('local')
 * await cluster.heartbeat({ url: 'http://127.0.0.1:8080', version: '1.0.0' })
 */
export function createLocalCluster(nodeId: string, options: LocalClusterOptions = {}): Cluster {
  checkNodeId(nodeId)
  const { clock = { now: () => Date.now() }, staleAfterMs = DEFAULT_STALE_AFTER_MS } = options
  checkStaleAfterMs(staleAfterMs)
  let self: { url?: string; version?: string; lastSeen: number } | undefined
  let latest = -Infinity
  let closed = false

  const assertOpen = (): void => {
    if (closed) throw new EngineError('CLOSED', 'the cluster is closed')
  }
  // The process clock may step back (NTP); the shared clock must not.
  const now = (): number => {
    latest = Math.max(latest, clock.now())
    return latest
  }

  return {
    nodeId,
    async heartbeat(info) {
      assertOpen()
      checkHeartbeatInfo(info)
      self = {
        ...self,
        ...(info?.url === undefined ? {} : { url: info.url }),
        ...(info?.version === undefined ? {} : { version: info.version }),
        lastSeen: now(),
      }
    },
    async nodes(): Promise<NodeInfo[]> {
      assertOpen()
      if (self === undefined) return []
      return [
        {
          id: nodeId,
          url: self.url,
          version: self.version,
          lastSeen: self.lastSeen,
          offsetMs: 0,
          alive: now() - self.lastSeen <= staleAfterMs,
        },
      ]
    },
    async now() {
      assertOpen()
      return now()
    },
    close() {
      closed = true
      return Promise.resolve()
    },
  }
}
