import { isEngineError } from '@svcdb/engine'
import type { Database, ImportResult } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import { ARCHIVE_VERSION_HEADER } from '../routes/versions/archive-response'
import type { PeerClock } from './peer-clock'
import { PeerError } from './peer-error'
import type { PeerHttp } from './peer-http'

/** What one pull did. */
export type PullOutcome =
  /** The peer has nothing this deployment lacks. */
  | { kind: 'current'; version: string }
  /** The peer reached this deployment's HEAD on its own: only the cursor moved. */
  | { kind: 'pinned'; version: string }
  /** HEAD moved to the peer's version (this deployment had not changed since the last sync). */
  | { kind: 'fast-forward'; version: string; entries: number }
  /** Both sides changed: the peer's version was kept as a fork; HEAD stayed. */
  | { kind: 'fork'; version: string; fork: string; entries: number }

/** What a pull works with. */
export interface PullServices {
  db: Database
  peer: PeerConfig
  http: PeerHttp
  clock: PeerClock
  now(): number
}

const HEX = /^[0-9a-f]{64}$/

/**
 * Pulls the peer's HEAD once (DESIGN §12, SCALE-OUT §2.7): the changes since the cursor (the
 * peer's version last synced, pinned here as ref `peer/NAME`) as a streamed patch, or its whole
 * HEAD when there is no cursor or the peer no longer keeps it. The archive is verified as any
 * import is and applied in one commit that also moves the cursor, so a crash leaves either
 * all of it or none. HEAD only fast-forwards: when it moved here since the last sync, the
 * peer's version becomes the fork `peer-NAME-<hash>` instead and nothing is overwritten.
 * A HEAD move racing the import fails it with `CONFLICT` (the caller pulls again).
 */
export async function pullOnce(s: PullServices, signal: AbortSignal): Promise<PullOutcome> {
  const { db, peer } = s
  const started = s.now()
  await s.http.request('GET', '/system/health', { signal })
  s.clock.roundTrip(s.now() - started)

  const cursor = await db.peerPins.get(peer.name)
  const response = await openArchive(s, cursor, signal)
  const target = response.headers.get(ARCHIVE_VERSION_HEADER)?.toLowerCase() ?? ''
  const body = response.body
  if (!HEX.test(target) || body === null) {
    await body?.cancel().catch(() => undefined)
    throw new PeerError(
      'INVALID_ARCHIVE',
      `peer ${peer.name} sent an archive without naming its version (${ARCHIVE_VERSION_HEADER})`,
    )
  }
  const head = db.head()
  if (target === cursor || target === head) {
    await body.cancel().catch(() => undefined)
    if (target === cursor) return { kind: 'current', version: target }
    await db.peerPins.set(peer.name, target)
    return { kind: 'pinned', version: target }
  }
  const fastForward = head === cursor || (cursor === undefined && (await db.count('/')) === 0)
  const common = { force: true, pin: peer.name, signal } as const
  if (fastForward) {
    const result = await db.importArchive(body, {
      ...common,
      promote: true,
      expectHead: head,
      by: `peer:${peer.name}`,
    })
    return { kind: 'fast-forward', version: target, entries: entriesOf(result) }
  }
  const fork = await freeForkName(db, peer.name, target)
  if (fork.existing) {
    await body.cancel().catch(() => undefined)
    await db.peerPins.set(peer.name, target)
    return { kind: 'fork', version: target, fork: fork.name, entries: 0 }
  }
  const result = await db.importArchive(body, { ...common, fork: fork.name })
  return { kind: 'fork', version: target, fork: fork.name, entries: entriesOf(result) }
}

/** The patch since `cursor`, or the whole HEAD when there is none or the peer lost it. */
async function openArchive(
  s: PullServices,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<Response> {
  if (cursor !== undefined) {
    try {
      return await s.http.request('POST', `/versions/diff?from=${cursor}`, { signal })
    } catch (err) {
      // The peer collected that version: start over from its whole HEAD.
      if (!(err instanceof PeerError && err.status === 404)) throw err
    }
  }
  return s.http.request('POST', '/versions/export', { signal })
}

/**
 * `peer-NAME-<12 hex>`, longer when that name holds another version; `existing` when a fork
 * of this name already holds exactly this version (an earlier pull made it).
 */
async function freeForkName(
  db: Database,
  peer: string,
  version: string,
): Promise<{ name: string; existing: boolean }> {
  for (const digits of [12, 20, 32, 48]) {
    const name = `peer-${peer}-${version.slice(0, digits)}`
    try {
      const fork = await db.forks.get(name)
      if (fork.version === version) return { name, existing: true }
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND')) return { name, existing: false }
      throw err
    }
  }
  throw new PeerError('CONFLICT', `forks named for version ${version} of peer ${peer} are all taken`)
}

function entriesOf(result: ImportResult): number {
  return result.entriesImported + result.deletionsApplied
}
