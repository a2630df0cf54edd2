import type { Database, ImportResult } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import type { PeerClock } from './peer-clock'
import type { PeerHttp } from './peer-http'
import { peerKeyMode } from './peer-key-mode'
import { chunksOf, forkFor, probeRoundTrip, untouchedPeerFork } from './pull-archive'
import { openPullSource } from './pull-source'
import { pullReadable } from './readable-pull'

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
  /**
   * Hears that the peer is at `target` while this deployment synced up to `cursor` (undefined
   * before the first sync), before anything is transferred: the replicator measures the lag.
   */
  onBehind?: (cursor: string | undefined, target: string) => void
}

/**
 * New chunk bytes after which a pull commits what it received so far: a pull cut short (kill
 * -9, a dropped link) keeps them, and the next one does not ask for them again.
 */
const COMMIT_CHUNKS_EVERY = 16 * 1024 * 1024

/**
 * Pulls the peer's HEAD once (DESIGN §12, SCALE-OUT §2.7): the changes since the cursor (the
 * peer's version last synced, pinned here as ref `peer/NAME`) as a streamed patch, or its whole
 * HEAD when there is no cursor or the peer no longer keeps it, either without the chunks
 * stored here (see {@link openPullSource}). The archive is verified as any
 * import is and applied in one commit that also moves the cursor, so a crash leaves either
 * all of it or none. HEAD only fast-forwards: when it moved here since the last sync, the
 * peer's version becomes the fork `peer-NAME-<hash>` instead and nothing is overwritten.
 * A HEAD move racing the import fails it with `CONFLICT` (the caller pulls again).
 */
export async function pullOnce(s: PullServices, signal: AbortSignal): Promise<PullOutcome> {
  const { db, peer } = s
  // A key that is not root may not export: it replicates what it may read, file by file. So
  // does a scope, so that nothing of the peer outside it is ever transferred or kept here.
  if (peer.scope !== undefined || (await peerKeyMode(s.http, peer.name, signal)) === 'readable')
    return pullReadable(s, signal)
  await probeRoundTrip(s, signal)
  const cursor = await db.peerPins.get(peer.name)
  const source = await openPullSource(s, cursor, signal)
  const { target } = source
  if (target !== cursor) s.onBehind?.(cursor, target)
  const head = db.head()
  if (target === cursor || target === head) {
    await source.cancel()
    if (target === cursor) return { kind: 'current', version: target }
    await db.peerPins.set(peer.name, target)
    return { kind: 'pinned', version: target }
  }
  const fastForward = head === cursor || (cursor === undefined && (await db.count('/')) === 0)
  const common = { force: true, pin: peer.name, signal, commitChunksEvery: COMMIT_CHUNKS_EVERY }
  if (fastForward) {
    const result = await db.importArchive(chunksOf(await source.body()), {
      ...common,
      promote: true,
      expectHead: head,
      by: `peer:${peer.name}`,
    })
    return { kind: 'fast-forward', version: target, entries: entriesOf(result) }
  }
  const fork = await forkFor(db, peer.name, target)
  if (fork.existing) {
    await source.cancel()
    // An earlier pull kept this very version (the peer went back to it).
    await db.peerPins.set(peer.name, target)
    return { kind: 'pinned', version: target }
  }
  const previous = cursor === undefined ? undefined : await untouchedPeerFork(db, peer.name, cursor)
  const result = await db.importArchive(chunksOf(await source.body()), {
    ...common,
    fork: fork.name,
  })
  // One fork per divergence: the peer's newer version supersedes the fork of its older one,
  // unless someone wrote to that fork (its version would then differ from the cursor).
  if (previous !== undefined) await db.forks.abandon(previous).catch(() => undefined)
  return { kind: 'fork', version: target, fork: fork.name, entries: entriesOf(result) }
}

function entriesOf(result: ImportResult): number {
  return result.entriesImported + result.deletionsApplied
}
