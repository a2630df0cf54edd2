import { readVersionLog } from '../state/version-log'
import { parseHash, sameBytes, toHex } from '../internal/hex'
import type { DirEntry, FileObject } from '../objects/tree-objects'
import { normalizePath } from '../path/db-path'
import { entryAt } from '../read/entry-at'
import { HEAD, refName } from '../meta/keys'
import type { MetaStore } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import type { DatabaseState } from '../state/database-state'

/** What path history reads: refs with their info, the version log, objects. */
export interface HistoryServices {
  readonly meta: MetaStore
  readonly objects: ObjectStore
  readonly state: DatabaseState
}

/** How an entry stood at one point of history. */
export interface HistoryEntry {
  /** The snapshot this point is, if it is one. */
  snapshot?: string
  /** Hex hash of the version. */
  version: string
  /** Unix milliseconds. */
  timestamp: number
  changeType: 'added' | 'modified' | 'deleted' | 'unchanged'
  /** Size of the entry (0 once deleted). */
  size: number
  /** A file's content type; `null` for directories, symlinks and deletions. */
  contentType: string | null
  /** A file's content hash, a directory's tree hash, a symlink's object hash; `null` once deleted. */
  hash: string | null
}

interface Point {
  root: Uint8Array
  at: number
  order: number
  snapshot?: string
}

/**
 * The history of `path` on HEAD's line: every version of the version log where the entry
 * changed, plus every snapshot, newest first. The log is bounded (DESIGN §3.4), so history
 * reaches back as far as the log and the oldest snapshot do.
 */
export async function history(core: HistoryServices, path: string): Promise<HistoryEntry[]> {
  const target = normalizePath(path)
  const points: Point[] = []
  let baseline: Uint8Array | undefined
  for await (const record of readVersionLog(core.meta)) {
    if (record.ref !== HEAD || record.to === null) continue
    if (baseline === undefined && record.from !== null) baseline = parseHash(record.from)
    points.push({ root: parseHash(record.to), at: record.at, order: record.seq })
  }
  for (const [ref, root] of core.state.refs) {
    const name = refName('snapshot', ref)
    if (name === undefined) continue
    const at = core.state.infos.get(ref)?.createdAt ?? 0
    // After the log records of the same millisecond: a snapshot sees what HEAD held then.
    points.push({ root, at, order: Number.MAX_SAFE_INTEGER, snapshot: name })
  }
  points.sort((a, b) => a.at - b.at || a.order - b.order)

  const entries = new Map<string, Promise<DirEntry | undefined>>()
  const lookup = (root: Uint8Array) => {
    const key = toHex(root)
    let found = entries.get(key)
    if (found === undefined) {
      found = entryAt(core.objects, root, target).catch(() => undefined)
      entries.set(key, found)
    }
    return found
  }
  let previous = baseline === undefined ? undefined : await lookup(baseline)
  const out: HistoryEntry[] = []
  for (const point of points) {
    const current = await lookup(point.root)
    const changeType = compare(previous, current)
    if (point.snapshot === undefined) previous = current
    if (changeType === undefined || (changeType === 'unchanged' && point.snapshot === undefined))
      continue
    const item: HistoryEntry = {
      version: toHex(point.root),
      timestamp: point.at,
      changeType,
      ...(await describe(core, current)),
    }
    if (point.snapshot !== undefined) item.snapshot = point.snapshot
    out.push(item)
  }
  return out.reverse()
}

function compare(
  before: DirEntry | undefined,
  after: DirEntry | undefined,
): HistoryEntry['changeType'] | undefined {
  if (before === undefined) return after === undefined ? undefined : 'added'
  if (after === undefined) return 'deleted'
  return sameBytes(before.hash, after.hash) && before.kind === after.kind ? 'unchanged' : 'modified'
}

async function describe(
  core: HistoryServices,
  entry: DirEntry | undefined,
): Promise<Pick<HistoryEntry, 'size' | 'contentType' | 'hash'>> {
  if (entry === undefined) return { size: 0, contentType: null, hash: null }
  if (entry.kind !== 'file') return { size: entry.size, contentType: null, hash: toHex(entry.hash) }
  const file = (await core.objects.get(entry.hash)) as FileObject
  return { size: file.size, contentType: file.contentType, hash: toHex(file.contentHash) }
}
