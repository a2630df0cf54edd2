import { whoamiSchema } from '@svcdb/contract'
import { PeerError } from './peer-error'
import type { PeerHttp } from './peer-http'
import { readPeerJson } from './peer-json-body'

/** How a pull reaches a peer: its whole database (a root key) or what the key may read. */
export type PeerKeyMode = 'archive' | 'readable'

// One answer per replicator: its PeerHttp lives as long as it does.
const modes = new WeakMap<PeerHttp, PeerKeyMode>()

/**
 * Whether the peer's key is root (`GET /auth/whoami`, `is_root`): root replicates through
 * archives, any other key (a user's, or a root key with rules) through the file routes,
 * limited to what it may read. Asked once per replicator; a failure is not remembered.
 */
export async function peerKeyMode(
  http: PeerHttp,
  peer: string,
  signal: AbortSignal,
): Promise<PeerKeyMode> {
  const known = modes.get(http)
  if (known !== undefined) return known
  let res: Response
  try {
    res = await http.request('GET', '/auth/whoami', { signal })
  } catch (err) {
    // A peer without the route predates non-root replication: its keys are root's.
    if (!(err instanceof PeerError && err.status === 404)) throw err
    modes.set(http, 'archive')
    return 'archive'
  }
  const whoami = await readPeerJson(peer, whoamiSchema, res)
  const mode: PeerKeyMode = whoami.is_root ? 'archive' : 'readable'
  modes.set(http, mode)
  return mode
}
