import type { Database } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import { ServerError } from '../errors/server-error'
import { peerStatusKey } from './peer-status-book'
import { readableCursorKey } from './readable-cursor'
import { stagingForkName } from './readable-staging'

/**
 * Drops what this deployment kept of a peer no longer configured (`DELETE /system/peers/NAME`):
 * its pins `peer/NAME` and `peer/NAME.incoming` (which keep the peer's last version from GC),
 * its read-only cursor, its staging forks and its saved status. Returns what went, for the
 * answer. `CONFLICT` while the peer is configured here (its next pull would make it all
 * again); `NOT_FOUND` when nothing of it is kept. Its `peer-NAME-<hash>` forks stay: they hold
 * divergent work someone may still promote.
 */
export async function forgetPeer(
  db: Database,
  configured: readonly PeerConfig[],
  name: string,
): Promise<string[]> {
  if (configured.some((p) => p.name === name))
    throw new ServerError(
      'CONFLICT',
      `peer ${name} is configured here: remove --peer ${name} (or SVCDB_PEERS) and restart first`,
    )
  const removed: string[] = []
  for (const pin of [name, `${name}.incoming`]) {
    if ((await db.peerPins.get(pin)) === undefined) continue
    await db.peerPins.delete(pin)
    removed.push(`peer/${pin}`)
  }
  const store = db.systemStore('peers')
  for (const key of [readableCursorKey(name), peerStatusKey(name)]) {
    if ((await store.get(key)) === undefined) continue
    await store.batch([{ type: 'del', key }])
    removed.push(key)
  }
  const staging = stagingForkName(name)
  for (const fork of await db.forks.list()) {
    if (fork.name !== staging && !fork.name.startsWith(`${staging}.`)) continue
    await db.forks.abandon(fork.name)
    removed.push(`fork ${fork.name}`)
  }
  if (removed.length === 0)
    throw new ServerError('NOT_FOUND', `nothing of a peer named ${name} is kept here`)
  return removed
}
