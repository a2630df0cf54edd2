import type { TreeView } from '@svcdb/engine'
import { localEntry, localScope } from './local-tree-facts'
import type { PeerHttp } from './peer-http'
import { peerChanges, peerStat, peerWalk } from './peer-tree-reads'
import { isAboveScope, isUnderScope, missingFrom, planSteps } from './readable-plan'
import type { ApplyStep, TreeFacts } from './readable-plan'

/** What a readable pull reads of the peer: its version, under its scope. */
export interface PeerRead {
  http: PeerHttp
  peer: string
  version: string
  scope: string
  signal: AbortSignal
}

/** A pull's steps, and how many changes the peer refused to the key while planning. */
export interface ReadablePlan {
  steps: ApplyStep[]
  refused: number
}

/**
 * The steps for the peer's changes since `from`, planned against `view`, or undefined when
 * the peer no longer has `from` or a change above the scope may have replaced all of it (a
 * full walk then).
 */
export async function changesPlan(
  r: PeerRead,
  view: TreeView,
  from: string,
): Promise<ReadablePlan | undefined> {
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

/** The steps that make the scope of `view` what a walk of the peer's scope finds. */
export async function fullPlan(
  r: PeerRead,
  view: TreeView,
  top: TreeFacts | undefined,
): Promise<ReadablePlan> {
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
export async function isEmptyScope(view: TreeView, scope: TreeFacts | undefined): Promise<boolean> {
  if (scope === undefined) return true
  return scope.type === 'directory' && (await view.count(scope.path)) === 0
}
