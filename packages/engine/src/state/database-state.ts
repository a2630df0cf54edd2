import type { RefInfo, RefMove, Tally } from './commit/committer'
import { EngineError } from './errors'
import { parseHash, toHex } from './internal/hex'
import { COUNTERS_KEY, FORMAT_KEY, parseSequenceKey, refName, sequenceKey } from './meta/keys'
import type { MetaOp, MetaStore } from './meta/meta-store'
import type { HashAlgorithm } from './hashing/hasher'
import type { StoredCounters } from './stats/engine-stats'
import { headLogOp } from './versions/head-log-record'

/**
 * Version of the database layout, recorded at creation and raised when a newer engine opens
 * an older database. 2: chunk records may use the Brotli codec, which engines of format 1
 * would report as corrupt; they refuse the database instead.
 */
export const DATABASE_FORMAT_VERSION = 2
/** Ref moves kept in the version log by default. */
export const VERSION_LOG_LIMIT = 10_000

/** What a database records about itself when created. */
export interface FormatRecord {
  formatVersion: number
  hashAlgorithm: HashAlgorithm
  chunker: { min: number; avg: number; max: number }
  createdAt: number
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function jsonValue(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value))
}

export function parseJson<T>(bytes: Uint8Array | undefined): T | undefined {
  return bytes === undefined ? undefined : (JSON.parse(decoder.decode(bytes)) as T)
}

/** Reads the format record, refusing layouts this version cannot read. */
export async function readFormat(meta: MetaStore): Promise<FormatRecord | undefined> {
  const format = parseJson<FormatRecord>(await meta.get('meta', FORMAT_KEY))
  if (format !== undefined && format.formatVersion > DATABASE_FORMAT_VERSION) {
    throw new EngineError(
      'CONFLICT',
      `database format ${format.formatVersion} is newer than this engine supports (${DATABASE_FORMAT_VERSION}); upgrade @svcdb/engine`,
    )
  }
  return format
}

/**
 * Raises an older database's format record to {@link DATABASE_FORMAT_VERSION} (synced) before
 * anything of the newer layout is written; everything an older format stored stays readable.
 */
export async function upgradeFormat(meta: MetaStore, format: FormatRecord): Promise<FormatRecord> {
  if (format.formatVersion >= DATABASE_FORMAT_VERSION) return format
  const upgraded = { ...format, formatVersion: DATABASE_FORMAT_VERSION }
  await meta.batch([{ type: 'put', space: 'meta', key: FORMAT_KEY, value: jsonValue(upgraded) }], {
    sync: true,
  })
  return upgraded
}

/** One ref move of the version log, as stored. */
export interface LogRecord {
  seq: number
  ref: string
  /** Hex roots; `null` when the ref did not exist before, or was removed. */
  from: string | null
  to: string | null
  at: number
}

/** The version log, oldest first (or newest first with `reverse`). */
export async function* readVersionLog(
  meta: MetaStore,
  options: { reverse?: boolean; after?: number } = {},
): AsyncGenerator<LogRecord> {
  const range = options.after === undefined ? {} : { gt: sequenceKey(options.after) }
  for await (const [key, value] of meta.iterate('log', {
    ...range,
    reverse: options.reverse ?? false,
  })) {
    const seq = parseSequenceKey(key)
    const record = parseJson<Omit<LogRecord, 'seq'>>(value)
    if (seq !== undefined && record !== undefined) yield { seq, ...record }
  }
}

/** The root bytes of a log record's side, if any. */
export function logRoot(hex: string | null): Uint8Array | undefined {
  return hex === null ? undefined : parseHash(hex)
}

/**
 * The mutable bookkeeping of an open database: refs, persistent counters and the version log
 * sequence. Changes are staged as ops for the commit batch and applied in memory only once
 * that batch is durable.
 */
export class DatabaseState {
  constructor(
    readonly refs: Map<string, Uint8Array>,
    readonly infos: Map<string, RefInfo>,
    public counters: StoredCounters,
    private logSeq: number,
    private readonly logLimit: number = VERSION_LOG_LIMIT,
  ) {
    for (const ref of refs.keys()) this.countRef(ref, 1)
  }

  private countRef(ref: string, delta: number): void {
    if (refName('snapshot', ref) !== undefined) this.namedRefs.snapshots += delta
    else if (refName('fork', ref) !== undefined) this.namedRefs.forks += delta
  }

  /** Snapshots and forks, kept as refs come and go so stats stay O(1). */
  readonly namedRefs = { snapshots: 0, forks: 0 }

  /** Sequence number of the latest version log record. */
  get lastLogSeq(): number {
    return this.logSeq
  }

  static async load(meta: MetaStore, logLimit = VERSION_LOG_LIMIT): Promise<DatabaseState> {
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
    for await (const [key] of meta.iterate('log', { reverse: true, limit: 1 }))
      logSeq = parseSequenceKey(key) ?? 0
    // A smaller limit than last time: drop what is now outside the window (sequences start at 1).
    const trimmed: MetaOp[] = []
    if (logSeq - logLimit > 0)
      for await (const [key] of meta.iterate('log', { lte: sequenceKey(logSeq - logLimit) }))
        trimmed.push({ type: 'del', space: 'log', key })
    if (trimmed.length > 0) await meta.batch(trimmed, { sync: true })
    return new DatabaseState(refs, infos, counters, logSeq, logLimit)
  }

  /** Counters after a group's tally. */
  countersAfter(tally: Tally): StoredCounters {
    return {
      ...this.counters,
      chunks: this.counters.chunks + tally.chunks,
      chunkRawBytes: this.counters.chunkRawBytes + tally.rawBytes,
      chunkStoredBytes: this.counters.chunkStoredBytes + tally.storedBytes,
    }
  }

  /** Ops recording a group's ref moves in the version log and its counters. */
  groupOps(moves: readonly RefMove[], tally: Tally): MetaOp[] {
    const ops: MetaOp[] = [
      {
        type: 'put',
        space: 'meta',
        key: COUNTERS_KEY,
        value: jsonValue(this.countersAfter(tally)),
      },
    ]
    let seq = this.logSeq
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
      if (seq > this.logLimit)
        ops.push({ type: 'del', space: 'log', key: sequenceKey(seq - this.logLimit) })
    }
    return ops
  }

  /** Applies a durable group in memory. */
  committed(moves: readonly RefMove[], tally: Tally): void {
    this.counters = this.countersAfter(tally)
    this.logSeq += moves.length
    for (const move of moves) {
      const existed = this.refs.has(move.ref)
      if (move.to === null) {
        if (existed) this.countRef(move.ref, -1)
        this.refs.delete(move.ref)
        this.infos.delete(move.ref)
      } else {
        if (!existed) this.countRef(move.ref, 1)
        this.refs.set(move.ref, move.to)
        if (move.info !== undefined) this.infos.set(move.ref, move.info)
      }
    }
  }
}
