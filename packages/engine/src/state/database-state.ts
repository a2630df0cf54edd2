import { EngineError } from '../errors'
import { toHex } from '../internal/hex'
import { COUNTERS_KEY, describeRef, parseSequenceKey, refName, sequenceKey } from '../meta/keys'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { StoredCounters } from '../stats/engine-stats'
import { Counters } from './counters'
import { headLogOp } from './head-log-record'
import type { RefInfo, RefMove, Tally } from './ref-move'
import { jsonValue, parseJson } from './stored-json'
import { VERSION_LOG_LIMIT } from './version-log'

/**
 * The refs of an open database with their info, its persistent counters and the version log
 * sequence. Changes are staged as ops for the commit batch and applied in memory only once
 * that batch is durable; refs move only through {@link DatabaseState.committed}.
 */
export class DatabaseState {
  readonly #refs: Map<string, Uint8Array>
  readonly #infos: Map<string, RefInfo>
  readonly counters: Counters
  #logSeq: number
  readonly #logLimit: number
  readonly #named = { snapshots: 0, forks: 0 }

  constructor(
    refs: Map<string, Uint8Array>,
    infos: Map<string, RefInfo>,
    counters: StoredCounters,
    logSeq: number,
    logLimit: number = VERSION_LOG_LIMIT,
  ) {
    this.#refs = refs
    this.#infos = infos
    this.counters = new Counters(counters)
    this.#logSeq = logSeq
    this.#logLimit = logLimit
    for (const ref of refs.keys()) this.countRef(ref, 1)
  }

  /** Committed roots by ref. */
  get refs(): ReadonlyMap<string, Uint8Array> {
    return this.#refs
  }

  /** Info recorded with snapshot and fork refs. */
  get infos(): ReadonlyMap<string, RefInfo> {
    return this.#infos
  }

  /** Snapshots and forks, kept as refs come and go so stats stay O(1). */
  get namedRefs(): Readonly<{ snapshots: number; forks: number }> {
    return this.#named
  }

  /** Sequence number of the latest version log record. */
  get lastLogSeq(): number {
    return this.#logSeq
  }

  /** The committed root of `ref`; `NOT_FOUND` when it does not exist. */
  rootOf(ref: string): Uint8Array {
    const root = this.#refs.get(ref)
    if (root === undefined) throw new EngineError('NOT_FOUND', `${describeRef(ref)} does not exist`)
    return root
  }

  private countRef(ref: string, delta: number): void {
    if (refName('snapshot', ref) !== undefined) this.#named.snapshots += delta
    else if (refName('fork', ref) !== undefined) this.#named.forks += delta
  }

  /**
   * Loads the state of a database used by one process from `meta`, first dropping version
   * log records a smaller `logLimit` than last time leaves outside the window. (A shared
   * database loads with {@link readVersionState}: its commit batches trim as they go.)
   */
  static async load(meta: MetaStore, logLimit = VERSION_LOG_LIMIT): Promise<DatabaseState> {
    const stored = await readVersionState(meta)
    const { logSeq } = stored
    // Sequences start at 1: everything at or below logSeq - logLimit is outside the window.
    const trimmed: MetaOp[] = []
    if (logSeq - logLimit > 0)
      for await (const [key] of meta.iterate('log', { lte: sequenceKey(logSeq - logLimit) }))
        trimmed.push({ type: 'del', space: 'log', key })
    if (trimmed.length > 0) await meta.batch(trimmed, { sync: true })
    return DatabaseState.of(stored, logLimit)
  }

  /** A state holding what {@link readVersionState} read. */
  static of(stored: StoredVersionState, logLimit = VERSION_LOG_LIMIT): DatabaseState {
    return new DatabaseState(stored.refs, stored.infos, stored.counters, stored.logSeq, logLimit)
  }

  /**
   * Replaces everything with a newer stored state (a shared database's reload, after other
   * nodes committed). Callers apply it in one synchronous step, so no reader sees a mix.
   */
  replace(stored: StoredVersionState): void {
    this.#refs.clear()
    for (const [ref, root] of stored.refs) this.#refs.set(ref, root)
    this.#infos.clear()
    for (const [ref, info] of stored.infos) this.#infos.set(ref, info)
    this.counters.reloaded(stored.counters)
    this.#logSeq = stored.logSeq
    this.#named.snapshots = 0
    this.#named.forks = 0
    for (const ref of this.#refs.keys()) this.countRef(ref, 1)
  }

  /** Ops recording a group's ref moves in the version log and its counters. */
  groupOps(moves: readonly RefMove[], tally: Tally): MetaOp[] {
    const ops: MetaOp[] = [
      {
        type: 'put',
        space: 'meta',
        key: COUNTERS_KEY,
        value: jsonValue(this.counters.after(tally)),
      },
    ]
    let seq = this.#logSeq
    for (const move of moves) {
      seq++
      const record = {
        ref: move.ref,
        from: move.from === null ? null : toHex(move.from),
        to: move.to === null ? null : toHex(move.to),
        at: move.at,
      }
      ops.push({ type: 'put', space: 'log', key: sequenceKey(seq), value: jsonValue(record) })
      // Kept apart from the bounded version log: its records age out by time, not by count.
      if (move.headLog !== undefined && move.from !== null && move.to !== null)
        ops.push(headLogOp(seq, move.from, move.to, move.at, move.headLog))
      if (move.to === null) ops.push({ type: 'del', space: 'refinfo', key: move.ref })
      else if (move.info !== undefined)
        ops.push({ type: 'put', space: 'refinfo', key: move.ref, value: jsonValue(move.info) })
      if (seq > this.#logLimit)
        ops.push({ type: 'del', space: 'log', key: sequenceKey(seq - this.#logLimit) })
    }
    return ops
  }

  /** Applies a durable group in memory. */
  committed(moves: readonly RefMove[], tally: Tally): void {
    this.counters.apply(tally)
    this.#logSeq += moves.length
    for (const move of moves) {
      const existed = this.#refs.has(move.ref)
      if (move.to === null) {
        if (existed) this.countRef(move.ref, -1)
        this.#refs.delete(move.ref)
        this.#infos.delete(move.ref)
      } else {
        if (!existed) this.countRef(move.ref, 1)
        this.#refs.set(move.ref, move.to)
        if (move.info !== undefined) this.#infos.set(move.ref, move.info)
      }
    }
  }
}

/** The version state as stored: refs, their info, the counters and the latest sequence. */
export interface StoredVersionState {
  refs: Map<string, Uint8Array>
  infos: Map<string, RefInfo>
  counters: StoredCounters
  /** The latest sequence of the version log or the HEAD log (they share one sequence). */
  logSeq: number
}

/**
 * Reads the version state from `meta` (at open, and at each reload of a shared database). The
 * sequence is the larger of the two logs' last keys: with `versionLogLimit: 0` the version log
 * keeps nothing, and the next HEAD log record must still not reuse a key.
 */
export async function readVersionState(meta: MetaStore): Promise<StoredVersionState> {
  const refs = new Map<string, Uint8Array>()
  for await (const [key, value] of meta.iterate('ref')) refs.set(key, value)
  const infos = new Map<string, RefInfo>()
  for await (const [key, value] of meta.iterate('refinfo'))
    infos.set(key, parseJson<RefInfo>(value) as RefInfo)
  const counters = parseJson<StoredCounters>(await meta.get('meta', COUNTERS_KEY)) ?? {
    chunks: 0,
    chunkRawBytes: 0,
    chunkStoredBytes: 0,
    voidBytes: 0,
  }
  let logSeq = 0
  for (const space of ['log', 'headlog'] as const)
    for await (const key of meta.keys(space, { reverse: true, limit: 1 }))
      logSeq = Math.max(logSeq, parseSequenceKey(key) ?? 0)
  return { refs, infos, counters, logSeq }
}
