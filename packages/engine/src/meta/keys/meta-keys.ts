import { parseSequenceKey, sequenceKey } from './sequence-keys'

// Keys of the `meta` space: the format record, the persistent counters, the commit token of a
// shared database, one committed length per pack (`pack.000001`; ids past 999999 take more
// digits), and one change record per version log sequence (`changes.0000000000000042`).

/** The `meta` key of the format record (version, hash algorithm, chunker, creation time). */
export const FORMAT_KEY = 'format'
/** The `meta` key of the persistent counters. */
export const COUNTERS_KEY = 'counters'
/**
 * The `meta` key of the commit token of a shared database: a counter every batch that moves
 * refs or state raises, guarded on the value its node last saw (optimistic concurrency).
 */
export const COMMIT_TOKEN_KEY = 'commit-token'

const PACK_LENGTH_KEY = /^pack\.(\d{6,})$/

/**
 * Range of the `meta` space holding every committed pack length and nothing else: `/` is
 * the byte right after `.`. Keys sort by id only below a million; no reader relies on it.
 */
export const PACK_LENGTH_RANGE = { gte: 'pack.', lt: 'pack/' } as const

/** The `meta` key of pack `id`'s committed length (`id` a non-negative safe integer). */
export function packLengthKey(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0)
    throw new RangeError(`a pack id must be a non-negative safe integer, got ${id}`)
  return `pack.${String(id).padStart(6, '0')}`
}

/** The pack id of a committed-length key, or `undefined` for another key. */
export function parsePackLengthKey(key: string): number | undefined {
  const match = PACK_LENGTH_KEY.exec(key)
  if (match === null) return undefined
  const id = Number(match[1])
  return Number.isSafeInteger(id) ? id : undefined
}

const CHANGE_RECORD_PREFIX = 'changes.'

/**
 * Range of the `meta` space holding every change record and nothing else (`/` is the byte
 * right after `.`); the 16-digit sequence makes key order the log's order.
 */
export const CHANGE_RECORD_RANGE = { gte: 'changes.', lt: 'changes/' } as const

/**
 * The `meta` key of the change record of version log sequence `seq`: the changes the commit
 * that made that move reported (a non-negative safe integer, as {@link sequenceKey}).
 */
export function changeRecordKey(seq: number): string {
  return `${CHANGE_RECORD_PREFIX}${sequenceKey(seq)}`
}

/** The sequence of a change record key, or `undefined` for another key. */
export function parseChangeRecordKey(key: string): number | undefined {
  if (!key.startsWith(CHANGE_RECORD_PREFIX)) return undefined
  return parseSequenceKey(key.slice(CHANGE_RECORD_PREFIX.length))
}
