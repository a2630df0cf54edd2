import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import { chunksOf, forkFor, openArchive, probeRoundTrip, targetOf } from './pull-archive'
import type { PullOutcome, PullServices } from './pull-round'

/**
 * Pulls a peer replicated under a path scope (`--peer NAME=URL#/dir`): the peer's version is
 * imported whole (verified, and pinned as `peer/NAME.incoming` so GC spares it meanwhile),
 * then only `dir` is applied. It fast-forwards when `dir` here is what the last sync left
 * (the directory is replaced by the peer's, or removed when the peer removed it); when
 * both sides changed `dir`, the peer's version becomes a fork, as without a scope. The
 * cursor moves last, so a crash in between repeats the pull, and applying what is already
 * here only moves the cursor.
 */
export async function pullScoped(
  s: PullServices,
  scope: string,
  signal: AbortSignal,
): Promise<PullOutcome> {
  const { db, peer } = s
  await probeRoundTrip(s, signal)
  const cursor = await db.peerPins.get(peer.name)
  const response = await openArchive(s, cursor, signal)
  const { target, body } = await targetOf(peer, response)
  if (target === cursor) {
    await body.cancel().catch(() => undefined)
    return { kind: 'current', version: target }
  }
  s.onBehind?.(cursor, target)
  const incoming = `${peer.name}.incoming`
  const result = await db.importArchive(chunksOf(body), { force: true, pin: incoming, signal })
  const entries = result.entriesImported + result.deletionsApplied
  const [local, theirs, base] = await Promise.all([
    hashAt(db, db.head(), scope),
    hashAt(db, target, scope),
    cursor === undefined ? undefined : hashAt(db, cursor, scope),
  ])
  let outcome: PullOutcome
  if (local === theirs) {
    outcome = { kind: 'pinned', version: target }
  } else if (local === base) {
    if (theirs === undefined) await db.delete(scope, { recursive: true })
    else await db.restoreFile(scope, { version: target })
    outcome = { kind: 'fast-forward', version: target, entries }
  } else {
    const fork = await forkFor(db, peer.name, target)
    if (fork.existing) {
      outcome = { kind: 'pinned', version: target }
    } else {
      await db.forks.create(fork.name, { base: target })
      outcome = { kind: 'fork', version: target, fork: fork.name, entries }
    }
  }
  await db.peerPins.set(peer.name, target)
  await db.peerPins.delete(incoming)
  return outcome
}

/** The hash of the entry at `path` in `version`, or undefined when it has none there. */
async function hashAt(db: Database, version: string, path: string): Promise<string | undefined> {
  try {
    return (await db.at(version).stat(path)).hash
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND')) return undefined
    throw err
  }
}
