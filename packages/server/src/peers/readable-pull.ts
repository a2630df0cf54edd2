import { localEntry } from './local-tree-facts'
import { peerHead } from './peer-tree-reads'
import { probeRoundTrip } from './pull-archive'
import type { PullOutcome, PullServices } from './pull-round'
import { applySteps } from './readable-apply'
import { resumeReadableCursor, saveReadableCursor } from './readable-cursor'
import { landInFork, landOnHead } from './readable-land'
import type { StagedPull } from './readable-land'
import { changesPlan, fullPlan, isEmptyScope } from './readable-plan-reads'
import type { ReadablePlan } from './readable-plan-reads'
import { dropStaging, stagingForkName } from './readable-staging'

/** A readable pull's outcome, with the files the peer refused to the key. */
export type ReadablePullOutcome = PullOutcome & { skipped: number }

/**
 * Pulls a peer through a key that may only read some paths (not root): the archive routes
 * are root's, so this copies, through the file routes, exactly what the key may read under
 * the peer's scope (the whole tree without one). The cursor is the peer's version last
 * applied, kept with the scope's hash here right after that apply (see
 * `ReadableCursor`): the changes since it come from `GET /versions/changes` (which the
 * peer filters by the key's rights), or, with no cursor or one the peer no longer has, from
 * a walk of the scope, whose absent entries are deletions.
 *
 * Every step goes to a staging fork made from the HEAD the plan was made against, each file
 * verified there; only when all passed does the pull land, in one move (see
 * {@link landOnHead}): HEAD fast-forwards while its scope is as the last apply left it,
 * otherwise the peer's state becomes the fork `peer-NAME-<hash>` and HEAD stays. Any failure
 * drops the staging fork: HEAD and the cursor are as before. A file the peer refuses is
 * skipped, never a failure.
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
  // What a crash or a failure left is dropped, never promoted.
  await dropStaging(db, peer.name)
  const view = db.view()
  const ours = await localEntry(view, scope)
  const localHash = ours?.hash ?? null
  const record = await resumeReadableCursor(db, peer.name, localHash)
  if (record?.version === version) return { kind: 'current', version, skipped: 0 }
  const from = record?.version ?? undefined
  s.onBehind?.(from, version)

  const fastForward =
    from !== undefined ? localHash === record?.scopeHash : await isEmptyScope(view, ours)
  const read = { http, peer: peer.name, version, scope, signal }
  let plan: ReadablePlan | undefined
  if (fastForward && from !== undefined) plan = await changesPlan(read, view, from)
  plan ??= await fullPlan(read, view, their.top)
  const pinned = async (skipped: number): Promise<ReadablePullOutcome> => {
    // Already what the peer has (what this key may read of it): only the cursor moves.
    await saveReadableCursor(db, peer.name, { version, scopeHash: localHash })
    return { kind: 'pinned', version, skipped }
  }
  if (plan.steps.length === 0) return pinned(plan.refused)

  const staging = stagingForkName(peer.name)
  try {
    await db.forks.create(staging, { base: view.version })
    const count = await applySteps(
      { http, peer: peer.name, version, workspace: db.fork(staging), signal },
      plan.steps,
    )
    const skipped = plan.refused + count.skipped
    // Every difference was refused to the key: nothing to land.
    if (count.applied === 0) {
      await dropStaging(db, peer.name)
      return await pinned(skipped)
    }
    const staged: StagedPull = {
      db,
      peer: peer.name,
      scope,
      version,
      staging,
      plannedHead: view.version,
      plannedScopeHash: localHash,
      steps: plan.steps,
      cursor: record,
      signal,
    }
    const entries = count.applied
    if (fastForward) {
      const landed = await landOnHead(staged)
      if (landed.at === 'head') return { kind: 'fast-forward', version, entries, skipped }
      return { kind: 'fork', version, fork: landed.fork, entries, skipped }
    }
    return { kind: 'fork', version, fork: await landInFork(staged), entries, skipped }
  } catch (err) {
    // HEAD never saw the staged steps: dropping them undoes the whole attempt.
    await dropStaging(db, peer.name).catch(() => undefined)
    throw err
  }
}
