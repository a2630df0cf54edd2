import type { Database, Leases } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import type { Logger } from '../logger'
import { reportLeftoverPeers } from './peer-leftovers'
import { createPeerStatusBook } from './peer-status-book'
import type { PeerStatusBook } from './peer-status-book'
import { startPeerReplicator } from './peer-replicator'

/** Replication of every configured peer. */
export interface Peers {
  /** Status of each peer (`GET /system/peers`, the stats `sync` section). */
  book: PeerStatusBook
  /** Whether any peer is configured: the stats `sync` section appears only then. */
  active: boolean
  stop(): Promise<void>
}

/**
 * Starts replicating `peers` into `db` (none: nothing runs), after their saved status is
 * loaded; also names in warnings the pins left by peers no longer configured, and deletes
 * their status records.
 */
export function startPeers(options: {
  db: Database
  peers: readonly PeerConfig[]
  intervalMs: number
  leases: Leases
  logger: Logger
  fetch?: typeof fetch
}): Peers {
  const now = Date.now
  const book = createPeerStatusBook({ ...options, now })
  const tidied = reportLeftoverPeers({ ...options, book }).catch((err: unknown) => {
    options.logger.warn(`leftovers of former peers could not be checked: ${(err as Error).message}`)
  })
  const replicators = options.peers.map((peer) =>
    startPeerReplicator({
      db: options.db,
      peer,
      intervalMs: options.intervalMs,
      leases: options.leases,
      book,
      logger: options.logger,
      now,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    }),
  )
  return {
    book,
    active: options.peers.length > 0,
    async stop() {
      await Promise.all([tidied, ...replicators.map((r) => r.stop())])
    },
  }
}
