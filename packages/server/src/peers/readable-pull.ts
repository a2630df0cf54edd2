import { isEngineError } from '@svcdb/engine'
import type { Database, TreeView } from '@svcdb/engine'
import { localEntry, localScope } from './local-tree-facts'
import { peerChanges, peerHead, peerStat, peerWalk } from './peer-tree-reads'
import { forkFor, probeRoundTrip } from './pull-archive'
import type { PullOutcome, PullServices } from './pull-round'
import { applySteps } from './readable-apply'
import type { ApplyCount } from './readable-apply'
import { loadReadableCursor, saveReadableCursor } from './readable-cursor'
import type { ReadableCursor } from './readable-cursor'
import { isAboveScope, isUnderScope, missingFrom, planSteps } from './readable-plan'
import type { ApplyStep, TreeFacts } from './readable-plan'

/** The scope hash recorded when someone else wrote there during an apply: it matches none. */
const INTERLEAVED = 'interleaved'

/** A readable pull's outcome, with the files the peer refused to the key. */
export type ReadablePullOutcome = PullOutcome & { skipped: number }

/**
 * Pulls a peer through a key that may only read some paths (not root): the archive routes
 * are root's, so this copies, through the file routes, exactly what the key may read under
 * the peer's scope (the whole tree without one). The cursor is the peer's version last
 * applied, kept with the scope's hash here right after that apply (see
 * {@link ReadableCursor}): the changes since it come from `GET /versions/changes` (which the
 * peer filters by the key's rights), or, with no cursor or one the peer no longer has, from
 * a walk of the scope, whose absent entries are deletions. HEAD fast-forwards while its
 * scope is as the last apply left it; otherwise the peer's state goes into a new fork
 * `peer-NAME-<hash>` made from HEAD, and HEAD stays. Every file is verified on arrival; a
 * file the peer refuses is skipped, never a failure.
 */
export async function pullReadable(
  s: PullServices,
  signal: AbortSignal,
): Promise<ReadablePullOutcome> {
  const { db, peer, http } = s
  const scope = peer.scope ?? '/'
  await probeRoundTrip(s, signal)
  const their = await peerHead(http, peer.name, scope, signal)
  const version = their.version
  const record = await loadReadableCursor(db, peer.name)
  if (record?.applying === undefined && record?.version === version)
    return { kind: 'current', version, skipped: 0 }

  // A crash mid-apply: into HEAD it is repeated (HEAD's scope is partly ours already); a
  // partly made fork is dropped and made again.
  const resumeHead = record?.applying?.fork === null
  const halfFork = record?.applying?.fork ?? undefined
  if (halfFork !== undefined) await abandonIfPresent(db, halfFork)
  const base =
    record === undefined || record.version === null
      ? undefined
      : { version: record.version, scopeHash: record.scopeHash }

  const view = db.view()
  const ours = await localEntry(view, scope)
  const localHash = ours?.hash ?? null
  const fastForward =
    resumeHead || (base !== undefined ? localHash === base.scopeHash : await isEmpty(view, ours))

  const read = { http, peer: peer.name, version, scope, signal }
  let plan: { steps: ApplyStep[]; refused: number } | undefined
  if (fastForward && !resumeHead && base !== undefined)
    plan = await changesPlan(read, view, base.version)
  plan ??= await fullPlan(read, view, their.top)

  const settled = async (scopeHash: string | null) =>
    saveReadableCursor(db, peer.name, { version, scopeHash })
  if (plan.steps.length === 0) {
    // Already what the peer has (what this key may read of it): only the cursor moves.
    await settled(localHash)
    return { kind: 'pinned', version, skipped: plan.refused }
  }

  const fork = fastForward ? undefined : (await forkFor(db, peer.name, version)).name
  const before: ReadableCursor = {
    version: base?.version ?? null,
    scopeHash: base?.scopeHash ?? null,
  }
  await saveReadableCursor(db, peer.name, {
    ...before,
    applying: { version, fork: fork ?? null },
  })
  if (fork !== undefined) await db.forks.create(fork)
  const workspace = fork === undefined ? db : db.fork(fork)
  let count: ApplyCount
  try {
    count = await applySteps(
      {
        http,
        peer: peer.name,
        version,
        workspace,
        scope,
        ...(fork === undefined ? { head: db, plannedAt: view.version } : {}),
        signal,
      },
      plan.steps,
    )
  } catch (err) {
    if (fork !== undefined) {
      // HEAD was never touched: dropping the fork undoes the whole attempt.
      await abandonIfPresent(db, fork).catch(() => undefined)
      await saveReadableCursor(db, peer.name, before).catch(() => undefined)
    }
    throw err
  }
  const skipped = plan.refused + count.skipped
  // The scope as our last change left it: a write of someone else after it is a local change.
  const applied =
    fork !== undefined
      ? workspace.view()
      : count.version === undefined
        ? view
        : db.at(count.version)
  const scopeHash = count.interleaved
    ? INTERLEAVED
    : ((await localEntry(applied, scope))?.hash ?? null)
  if (fork !== undefined && count.applied === 0) {
    // Every difference was refused to the key: the fork would only copy HEAD.
    await abandonIfPresent(db, fork)
    await settled(localHash)
    return { kind: 'pinned', version, skipped }
  }
  await settled(scopeHash)
  if (fork === undefined) return { kind: 'fast-forward', version, entries: count.applied, skipped }
  return { kind: 'fork', version, fork, entries: count.applied, skipped }
}

interface PeerRead {
  http: PullServices['http']
  peer: string
  version: string
  scope: string
  signal: AbortSignal
}

/**
 * The steps for the peer's changes since `from`, or undefined when the peer no longer has
 * `from` or a change above the scope may have replaced all of it (a full walk then).
 */
async function changesPlan(
  r: PeerRead,
  view: TreeView,
  from: string,
): Promise<{ steps: ApplyStep[]; refused: number } | undefined> {
  const changes = await peerChanges(r.http, r.peer, from, r.version, r.signal)
  if (changes === undefined) return undefined
  const mine = changes.filter((c) => isUnderScope(c.path, r.scope) || isAboveScope(c.path, r.scope))
  if (mine.some((c) => isAboveScope(c.path, r.scope))) return undefined
  const theirs: TreeFacts[] = []
  const removed: string[] = []
  let refused = 0
  for (const change of mine) {
    if (change.change === 'deleted') {
      removed.push(change.path)
      continue
    }
    const entry = await peerStat(r.http, r.peer, change.path, r.version, r.scope, r.signal)
    if (entry === undefined) {
      refused++
      continue
    }
    theirs.push(entry)
    // A directory shows once in the changes, whatever it holds.
    if (entry.type === 'directory')
      theirs.push(
        ...(await peerWalk(r.http, r.peer, entry.path, r.version, r.scope, r.signal)).entries,
      )
  }
  const ours = new Map<string, TreeFacts>()
  for (const path of new Set([...removed, ...theirs.map((e) => e.path)])) {
    const here = await localEntry(view, path)
    if (here !== undefined) ours.set(path, here)
  }
  return { steps: planSteps(theirs, ours, removed), refused }
}

/** The steps that make the scope here what a walk of the peer's scope finds. */
async function fullPlan(
  r: PeerRead,
  view: TreeView,
  top: TreeFacts | undefined,
): Promise<{ steps: ApplyStep[]; refused: number }> {
  const theirs: TreeFacts[] = top === undefined ? [] : [top]
  let unlisted: string[] = []
  if (r.scope === '/' || top?.type === 'directory') {
    const walk = await peerWalk(r.http, r.peer, r.scope, r.version, r.scope, r.signal)
    theirs.push(...walk.entries)
    unlisted = walk.unlisted
  }
  const ours = await localScope(view, r.scope)
  return { steps: planSteps(theirs, ours, missingFrom(theirs, ours, unlisted)), refused: 0 }
}

/** True when the scope here is absent or an empty directory: the first pull may fill it. */
async function isEmpty(view: TreeView, scope: TreeFacts | undefined): Promise<boolean> {
  if (scope === undefined) return true
  return scope.type === 'directory' && (await view.count(scope.path)) === 0
}

async function abandonIfPresent(db: Database, fork: string): Promise<void> {
  try {
    await db.forks.abandon(fork)
  } catch (err) {
    if (!isEngineError(err, 'NOT_FOUND')) throw err
  }
}
