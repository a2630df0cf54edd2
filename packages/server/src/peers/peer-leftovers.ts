import type { Database } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import type { Logger } from '../logger'
import type { PeerStatusBook } from './peer-status-book'

/** The suffix of the pin a scoped pull holds while it applies (`peer/NAME.incoming`). */
const INCOMING = '.incoming'

/**
 * Tidies what peers no longer configured left behind: their status records are deleted
 * (they are only shown, and only for configured peers), and each of their pins is named in
 * a warning, since a pin keeps its version from garbage collection for as long as it stays.
 * Pins are not dropped here: configuring the peer again resumes from them, and
 * `DELETE /system/peers/NAME` drops them (see forget-peer).
 */
export async function reportLeftoverPeers(options: {
  db: Database
  peers: readonly PeerConfig[]
  book: PeerStatusBook
  logger: Logger
}): Promise<void> {
  const configured = new Set(options.peers.map((p) => p.name))
  await options.book.forgetUnconfigured()
  for (const pin of await options.db.peerPins.list()) {
    const owner = pin.name.endsWith(INCOMING) ? pin.name.slice(0, -INCOMING.length) : pin.name
    if (configured.has(owner)) continue
    options.logger.warn(
      `pin peer/${pin.name} is left by peer ${owner}, which is no longer configured: it keeps version ${pin.version.slice(0, 12)} from garbage collection. Configure --peer ${owner}=URL again to resume from it, or drop it with: svcdb peers forget ${owner} (DELETE /system/peers/${owner})`,
      { pin: `peer/${pin.name}`, version: pin.version },
    )
  }
}
