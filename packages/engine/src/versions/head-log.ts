import { EngineError } from '../errors'
import { parseHash, sameBytes, toHex } from '../internal/hex'
import { isSequenceKey } from '../meta/keys'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { parseHeadLogEntry } from '../state/head-log-record'
import type { HeadLogEntry, HeadLogMark, HeadMoveCause } from '../state/head-log-record'
import type { Clock } from '../internal/clock'

/** What reading and pruning the HEAD log needs. */
export interface HeadLogServices {
  assertOpen(): void
  readonly clock: Clock
  readonly headLogRetentionMs: number
  readonly meta: MetaStore
}

export type { HeadLogEntry, HeadLogMark, HeadMoveCause } from '../state/head-log-record'

/** What a caller of a history-replacing HEAD move may add: a guard and an actor. */
export interface HeadMoveOptions {
  /**
   * Compare-and-swap: the move happens only if HEAD is this hex hash when it commits, else
   * `CONFLICT` and nothing changes.
   */
  expectHead?: string
  /** Recorded as `by` in the HEAD log (a user id, say). */
  by?: string
}

/** A page of the HEAD log, newest first. */
export interface HeadLogPage {
  items: HeadLogEntry[]
  /** Pass back as `cursor` for the next page; absent on the last one. */
  cursor?: string
}

/** Options of `db.headLog()`. */
export interface HeadLogOptions {
  /** Items per page, 1 to {@link MAX_HEAD_LOG_PAGE} (default 100). */
  limit?: number
  /** The `cursor` of the previous page. */
  cursor?: string
}

/** How long versions named in the HEAD log are kept from GC by default: 30 days. */
export const DEFAULT_HEAD_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000
/** Largest page of the HEAD log. */
export const MAX_HEAD_LOG_PAGE = 1000
/** Longest `by` recorded; longer actor strings are refused. */
export const MAX_HEAD_LOG_ACTOR = 256

/** Refuses a malformed guard (`INVALID_HASH`) or actor (`INVALID_INPUT`) before anything queues. */
export function checkHeadMoveOptions(options: HeadMoveOptions): Uint8Array | undefined {
  if (
    options.by !== undefined &&
    (typeof options.by !== 'string' || options.by.length > MAX_HEAD_LOG_ACTOR)
  )
    throw new EngineError(
      'INVALID_INPUT',
      `by must be a string of at most ${MAX_HEAD_LOG_ACTOR} characters`,
    )
  return options.expectHead === undefined ? undefined : parseHash(options.expectHead)
}

/** Throws `CONFLICT` unless `head` (HEAD at the mutation's turn) is `expected`. */
export function assertExpectedHead(head: Uint8Array, expected: Uint8Array | undefined): void {
  if (expected === undefined || sameBytes(head, expected)) return
  throw new EngineError(
    'CONFLICT',
    `HEAD is ${toHex(head)}, not the expected ${toHex(expected)}: it moved since you looked; nothing was changed`,
  )
}

/** The mark of a HEAD move, `by` included when given. */
export function headLogMark(cause: HeadMoveCause, by: string | undefined): HeadLogMark {
  return by === undefined ? { cause } : { cause, by }
}

/** Every HEAD log record with its key, newest first. */
export async function* readHeadLog(
  meta: MetaStore,
  options: { before?: string } = {},
): AsyncGenerator<{ key: string; entry: HeadLogEntry }> {
  const range = options.before === undefined ? {} : { lt: options.before }
  for await (const [key, value] of meta.iterate('headlog', { ...range, reverse: true })) {
    const entry = parseHeadLogEntry(value)
    if (entry !== undefined) yield { key, entry }
  }
}

/** One page of the HEAD log, newest first (`INVALID_INPUT` for a bad limit or cursor). */
export async function headLogPage(
  core: HeadLogServices,
  options: HeadLogOptions,
): Promise<HeadLogPage> {
  core.assertOpen()
  const limit = options.limit ?? 100
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_HEAD_LOG_PAGE)
    throw new EngineError(
      'INVALID_INPUT',
      `limit must be an integer from 1 to ${MAX_HEAD_LOG_PAGE}`,
    )
  const { cursor } = options
  if (cursor !== undefined && !isSequenceKey(cursor))
    throw new EngineError('INVALID_INPUT', 'cursor must be the cursor of a previous page')
  const items: HeadLogEntry[] = []
  let last: string | undefined
  let more = false
  for await (const { key, entry } of readHeadLog(
    core.meta,
    cursor === undefined ? {} : { before: cursor },
  )) {
    if (items.length === limit) {
      more = true
      break
    }
    items.push(entry)
    last = key
  }
  return more && last !== undefined ? { items, cursor: last } : { items }
}

/**
 * The hex roots the HEAD log names within the retention window, after deleting (durably) the
 * records older than it. GC marks from these, so an undo stays possible for the whole window.
 */
export async function retainedHeadLogRoots(
  core: HeadLogServices,
  prune: boolean,
): Promise<Set<string>> {
  const since = core.clock.now() - core.headLogRetentionMs
  const roots = new Set<string>()
  const stale: MetaOp[] = []
  for await (const { key, entry } of readHeadLog(core.meta)) {
    if (entry.at >= since) {
      roots.add(entry.head)
      roots.add(entry.previous)
    } else stale.push({ type: 'del', space: 'headlog', key })
  }
  if (prune && stale.length > 0) await core.meta.batch(stale, { sync: true })
  return roots
}

/** True when the HEAD log names `hex` (as the head or the previous HEAD of a move). */
export async function headLogNames(meta: MetaStore, hex: string): Promise<boolean> {
  for await (const { entry } of readHeadLog(meta))
    if (entry.head === hex || entry.previous === hex) return true
  return false
}
