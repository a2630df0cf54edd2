import type { JournalRecord } from './crash-journal'

/** Files by path, each with the SHA-256 of its content. Absent paths hold no file. */
export type FileState = Map<string, string>

/** An acknowledged snapshot: its version hash and the files it holds. */
export interface SnapshotState {
  version: string
  files: FileState
}

/** What the journal says the database holds, and what each acknowledged snapshot held. */
export interface ExpectedState {
  files: FileState
  snapshots: Map<string, SnapshotState>
}

/** An operation sent but not answered when the server was killed: it may or may not be applied. */
export type InFlight =
  | { kind: 'write'; path: string; sha256: string }
  | { kind: 'delete'; path: string }
  | { kind: 'promote'; name: string }
  | { kind: 'other' }

/** Applies one journal record to `state` (in place). */
export function applyRecord(state: ExpectedState, record: JournalRecord): void {
  switch (record.kind) {
    case 'write':
      state.files.set(record.path, record.sha256)
      return
    case 'delete':
      state.files.delete(record.path)
      return
    case 'snapshot':
      // Snapshots are taken with no write in flight (see mixed-load.ts), so the state at this
      // point of the journal is exactly what the snapshot holds.
      state.snapshots.set(record.name, { version: record.version, files: new Map(state.files) })
      return
    case 'promote': {
      const target = state.snapshots.get(record.name)
      if (target === undefined) throw new Error(`journal promotes unknown snapshot ${record.name}`)
      state.files = new Map(target.files)
      return
    }
    case 'observed':
      if (record.sha256 === null) state.files.delete(record.path)
      else state.files.set(record.path, record.sha256)
  }
}

/** Replays a journal from the start. */
export function replayJournal(records: readonly JournalRecord[]): ExpectedState {
  const state: ExpectedState = { files: new Map(), snapshots: new Map() }
  for (const record of records) applyRecord(state, record)
  return state
}

/** A file as read back: its content's SHA-256, or `unreadable` when the read failed. */
export type ReadBack = string | 'unreadable'

/** The verdict on one restart: paths by kind of damage, and the records that settle it. */
export interface Verdict {
  /** Paths compared. */
  checked: number
  /** An acknowledged file missing, or an older content back in its place. */
  lost: string[]
  /** Content that is no complete version ever sent to that path, or that cannot be read. */
  torn: string[]
  /** A file back after an acknowledged delete (or a promote that removed it). */
  resurrected: string[]
  /** `observed` records for every path whose state differs from the journal's (in-flight ops). */
  settle: JournalRecord[]
}

/**
 * Compares what the server holds after a crash with what the journal acknowledged.
 * A path may hold its acknowledged state or, if an operation on it was in flight at the kill,
 * that operation's result. A promote in flight moves every path at once (it is one ref move),
 * so the whole tree must match either the state before it or the snapshot it promotes: both
 * are tried and the closer one is judged. `known` holds every content ever sent to a path,
 * acknowledged or not, to tell a lost write (an older, complete content) from a torn one.
 */
export function judgeRestart(
  expected: ExpectedState,
  inFlight: readonly InFlight[],
  actual: ReadonlyMap<string, ReadBack>,
  known: ReadonlyMap<string, ReadonlySet<string>>,
): Verdict {
  const candidates: FileState[] = [expected.files]
  for (const op of inFlight) {
    if (op.kind !== 'promote') continue
    const target = expected.snapshots.get(op.name)
    if (target !== undefined) candidates.push(target.files)
  }
  const verdicts = candidates.map((base) => judgeAgainst(base, inFlight, actual, known))
  verdicts.sort((a, b) => damage(a) - damage(b))
  const best = verdicts[0] as Verdict
  const paths = new Set([...expected.files.keys(), ...actual.keys()])
  for (const path of paths) {
    const now = actual.get(path)
    const settled = now === undefined || now === 'unreadable' ? null : now
    if (settled !== (expected.files.get(path) ?? null))
      best.settle.push({ kind: 'observed', path, sha256: settled })
  }
  return best
}

const damage = (v: Verdict) => v.lost.length + v.torn.length + v.resurrected.length

function judgeAgainst(
  base: FileState,
  inFlight: readonly InFlight[],
  actual: ReadonlyMap<string, ReadBack>,
  known: ReadonlyMap<string, ReadonlySet<string>>,
): Verdict {
  const verdict: Verdict = { checked: 0, lost: [], torn: [], resurrected: [], settle: [] }
  const allowed = new Map<string, Set<string | null>>()
  const allow = (path: string, state: string | null) => {
    const set = allowed.get(path) ?? new Set()
    set.add(state)
    allowed.set(path, set)
  }
  for (const [path, sha] of base) allow(path, sha)
  for (const op of inFlight) {
    if (op.kind === 'write') allow(op.path, op.sha256)
    if (op.kind === 'delete') allow(op.path, null)
  }
  for (const path of new Set([...allowed.keys(), ...actual.keys()])) {
    verdict.checked++
    const ok = allowed.get(path) ?? new Set([null])
    if (!base.has(path)) ok.add(null)
    const now = actual.get(path) ?? null
    if (ok.has(now)) continue
    if (now === null) verdict.lost.push(path)
    else if (now === 'unreadable' || known.get(path)?.has(now) !== true) verdict.torn.push(path)
    else if (!base.has(path)) verdict.resurrected.push(path)
    else verdict.lost.push(path)
  }
  return verdict
}
