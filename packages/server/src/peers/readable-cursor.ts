import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'

/**
 * Where a pull through a read-only key stands with one peer. The peer's versions are not
 * stored here (only what the key may read of them is copied), so the cursor cannot be an
 * engine pin: it is this record, in the system store `peers` under `readable/NAME`.
 */
export interface ReadableCursor {
  /** The peer's version last applied; null before the first apply ends. */
  version: string | null
  /**
   * The hash of the scope here as that apply left it (in HEAD, or in the fork it made), or
   * null when it left no scope: HEAD fast-forwards only while its scope still has this hash.
   */
  scopeHash: string | null
  /**
   * The fork the last divergent pull made and its version then: while nobody changed it, the
   * next divergent pull replaces it instead of adding another.
   */
  fork?: { name: string; version: string }
  /**
   * Saved just before an apply lands (HEAD moves, or the fork is made), so a crash right after
   * it is not mistaken for a local change: see {@link resumeReadableCursor}.
   */
  landing?: { version: string; scopeHash: string | null; fork?: string }
}

/** The system-store key of `peer`'s record. */
export function readableCursorKey(peer: string): string {
  return `readable/${peer}`
}

/** The record of `peer` as saved, or undefined before its first apply. */
export async function loadReadableCursor(
  db: Database,
  peer: string,
): Promise<ReadableCursor | undefined> {
  const raw = await db.systemStore('peers').get(readableCursorKey(peer))
  if (raw === undefined) return undefined
  const parsed = JSON.parse(raw) as Partial<ReadableCursor> & { applying?: unknown }
  // A record this code did not write counts as none: the next pull starts from a full listing.
  if (typeof parsed.version !== 'string' && parsed.version !== null) return undefined
  // `applying` (an older apply straight into HEAD) is dropped: HEAD's scope then differs
  // from `scopeHash`, so what it left is kept as a local change, never overwritten.
  const { applying: _older, ...cursor } = parsed
  return cursor as ReadableCursor
}

/**
 * `peer`'s record with a landing that happened folded in: into HEAD when HEAD's scope has the
 * landing's hash now (`headScopeHash`; HEAD's scope is then the peer's as of that version,
 * whoever made it so), into a fork when the fork exists. A landing that did not happen is
 * dropped: the record stays as before it. The record found is saved so.
 */
export async function resumeReadableCursor(
  db: Database,
  peer: string,
  headScopeHash: string | null,
): Promise<ReadableCursor | undefined> {
  const record = await loadReadableCursor(db, peer)
  if (record?.landing === undefined) return record
  const resumed = await landed(db, record, record.landing, headScopeHash)
  await saveReadableCursor(db, peer, resumed)
  return resumed
}

async function landed(
  db: Database,
  record: ReadableCursor,
  landing: NonNullable<ReadableCursor['landing']>,
  headScopeHash: string | null,
): Promise<ReadableCursor> {
  const { landing: _landing, ...before } = record
  const done = { version: landing.version, scopeHash: landing.scopeHash }
  if (landing.fork === undefined) return headScopeHash === landing.scopeHash ? done : before
  try {
    const fork = await db.forks.get(landing.fork)
    return { ...done, fork: { name: fork.name, version: fork.version } }
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND')) return before
    throw err
  }
}

/** Saves `peer`'s record durably. */
export async function saveReadableCursor(
  db: Database,
  peer: string,
  cursor: ReadableCursor,
): Promise<void> {
  await db
    .systemStore('peers')
    .batch([{ type: 'put', key: readableCursorKey(peer), value: JSON.stringify(cursor) }])
}
