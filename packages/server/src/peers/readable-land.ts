import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import { localEntry } from './local-tree-facts'
import { PeerError } from './peer-error'
import { saveReadableCursor } from './readable-cursor'
import type { ReadableCursor } from './readable-cursor'
import type { ApplyStep } from './readable-plan'
import { abandonIfPresent, replaySteps, stagingForkName } from './readable-staging'

/** How often HEAD moving outside the scope is caught up with before the round gives up. */
const REBASES = 3

/** A pull's steps, every one applied and verified on its staging fork. */
export interface StagedPull {
  db: Database
  peer: string
  scope: string
  /** The peer's version the steps bring. */
  version: string
  /** The staging fork holding them. */
  staging: string
  /** The HEAD the plan was made against (the staging fork's base). */
  plannedHead: string
  /** The scope's hash in `plannedHead`, null when absent. */
  plannedScopeHash: string | null
  steps: readonly ApplyStep[]
  /** The peer's record before this pull. */
  cursor: ReadableCursor | undefined
  signal: AbortSignal
}

/** Where a staged pull landed. */
export type Landing = { at: 'head' } | { at: 'fork'; fork: string }

/**
 * Moves HEAD to the staging fork's version with one compare-and-swap on `plannedHead`, so a
 * write here since the plan can never be overwritten: when HEAD moved meanwhile and the scope
 * changed with it, both sides changed the scope and the peer's state lands in a fork instead
 * (HEAD keeps the local write); when only paths outside the scope changed, the steps are
 * copied onto a staging fork of the new HEAD (no byte asked of the peer again) and the swap
 * is tried again, the engine's `CONFLICT` after three tries (the caller pulls again). The
 * staging forks are abandoned and the cursor saved once landed.
 */
export async function landOnHead(p: StagedPull): Promise<Landing> {
  const { db, peer } = p
  let staging = p.staging
  let expectHead = p.plannedHead
  let scopeHash: string | null
  for (let attempt = 1; ; attempt++) {
    // The peer's scope as this key reads it (timestamps in it make each staging's own).
    scopeHash = await scopeHashOf(db, (await db.forks.get(staging)).version, p.scope)
    await saveReadableCursor(db, peer, {
      ...settledOf(p.cursor),
      landing: { version: p.version, scopeHash },
    })
    let conflict: unknown
    try {
      await db.forks.promote(staging, { expectHead, by: `peer:${peer}` })
      break
    } catch (err) {
      if (!isEngineError(err, 'CONFLICT')) throw err
      conflict = err
    }
    const head = db.view()
    if ((await localEntry(head, p.scope))?.hash !== (p.plannedScopeHash ?? undefined))
      return { at: 'fork', fork: await landInFork({ ...p, staging }) }
    // The engine's CONFLICT: the replicator pulls again at once.
    if (attempt > REBASES) throw conflict
    const next = stagingForkName(peer, attempt)
    await abandonIfPresent(db, next)
    await db.forks.create(next, { base: head.version })
    const staged = db.at((await db.forks.get(staging)).version)
    await replaySteps(db.fork(next), staged, p.steps, p.signal)
    await abandonIfPresent(db, staging)
    staging = next
    expectHead = head.version
  }
  await abandonIfPresent(db, staging)
  await saveReadableCursor(db, peer, { version: p.version, scopeHash })
  return { at: 'head' }
}

/**
 * Keeps the staging fork's state (the planned HEAD with the peer's scope) as the fork
 * `peer-NAME-<12 hex of the peer's version>`, HEAD untouched. The fork the previous pull made
 * goes when nobody changed it since (it is replaced, not multiplied). Returns the fork's name.
 */
export async function landInFork(p: StagedPull): Promise<string> {
  const { db, peer } = p
  const staged = (await db.forks.get(p.staging)).version
  const scopeHash = await scopeHashOf(db, staged, p.scope)
  const fork = await readableForkFor(db, peer, p.version, staged)
  await saveReadableCursor(db, peer, {
    ...settledOf(p.cursor),
    landing: { version: p.version, scopeHash, fork: fork.name },
  })
  if (!fork.existing) await db.forks.create(fork.name, { base: staged })
  await abandonIfPresent(db, p.staging)
  const previous = p.cursor?.fork
  if (previous !== undefined && previous.name !== fork.name) await dropUnchanged(db, previous)
  await saveReadableCursor(db, peer, {
    version: p.version,
    scopeHash,
    fork: { name: fork.name, version: staged },
  })
  return fork.name
}

/** The hash of `scope` in `version`, null when it has none there. */
async function scopeHashOf(db: Database, version: string, scope: string): Promise<string | null> {
  return (await localEntry(db.at(version), scope))?.hash ?? null
}

/** The record without a landing in progress. */
function settledOf(cursor: ReadableCursor | undefined): ReadableCursor {
  const settled: ReadableCursor = {
    version: cursor?.version ?? null,
    scopeHash: cursor?.scopeHash ?? null,
  }
  if (cursor?.fork !== undefined) settled.fork = cursor.fork
  return settled
}

/**
 * The fork for `version` of `peer`: `peer-NAME-<12 hex>`, longer when that name holds other
 * work; `existing` when it already holds exactly `staged` (a crash after making it).
 */
async function readableForkFor(
  db: Database,
  peer: string,
  version: string,
  staged: string,
): Promise<{ name: string; existing: boolean }> {
  for (const digits of [12, 20, 32, 48]) {
    const name = `peer-${peer}-${version.slice(0, digits)}`
    try {
      if ((await db.forks.get(name)).version === staged) return { name, existing: true }
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND')) return { name, existing: false }
      throw err
    }
  }
  throw new PeerError(
    'CONFLICT',
    `forks named for version ${version} of peer ${peer} are all taken`,
  )
}

/** Abandons the previous peer fork while it is still at the version the pull left it at. */
async function dropUnchanged(
  db: Database,
  previous: { name: string; version: string },
): Promise<void> {
  try {
    if ((await db.forks.get(previous.name)).version !== previous.version) return
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND')) return
    throw err
  }
  await abandonIfPresent(db, previous.name)
}
