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
   * Set before an apply starts and cleared when it ends: a crash in between leaves it, so the
   * next round repeats the apply into the same place instead of mistaking its own partial
   * apply for a local change. `fork` is null for HEAD.
   */
  applying?: { version: string; fork: string | null }
}

/** The system-store key of `peer`'s record. */
export function readableCursorKey(peer: string): string {
  return `readable/${peer}`
}

/** The record of `peer`, or undefined before its first apply. */
export async function loadReadableCursor(
  db: Database,
  peer: string,
): Promise<ReadableCursor | undefined> {
  const raw = await db.systemStore('peers').get(readableCursorKey(peer))
  if (raw === undefined) return undefined
  const parsed = JSON.parse(raw) as Partial<ReadableCursor>
  // A record this code did not write counts as none: the next pull starts from a full listing.
  if (typeof parsed.version !== 'string' && parsed.version !== null) return undefined
  return parsed as ReadableCursor
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
