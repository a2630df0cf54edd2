import type { Principal } from '@svcdb/auth'
import { ServerError } from '../../errors/server-error'

/** Chunks remembered by default, over every caller (≈ 150 bytes each). */
export const DEFAULT_POSSESSION_ENTRIES = 100_000

/**
 * Which chunks each caller has proven it holds, by sending their bytes to
 * `PUT /uploads/chunks/{hash}`, with their real sizes. Without it, `POST /uploads/check`
 * would tell anyone whether some content exists anywhere in the database (a guessed file
 * confirmed by its chunk hash), and `POST /uploads/commit` would materialise content the
 * caller never had into its own tree. Bounded: the oldest records go first, and a caller whose
 * record went must send the bytes again, which costs bandwidth, never correctness.
 */
export interface ChunkPossession {
  /** Records that `owner` sent the chunk `hash` of `size` bytes; false when it was known already. */
  record(owner: string, hash: string, size: number): boolean
  /** The size `owner` proved for `hash`, or `undefined` when it never sent it (or it was forgotten). */
  sizeOf(owner: string, hash: string): number | undefined
}

/** A {@link ChunkPossession} in memory, keeping at most `maxEntries` records. */
export function createChunkPossession(maxEntries = DEFAULT_POSSESSION_ENTRIES): ChunkPossession {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`)
  // A Map iterates in insertion order: re-inserting on use keeps it least-recently-used first.
  const sizes = new Map<string, number>()
  const keyOf = (owner: string, hash: string) => `${owner}\n${hash.toLowerCase()}`
  return {
    record(owner, hash, size) {
      const key = keyOf(owner, hash)
      const known = sizes.delete(key)
      sizes.set(key, size)
      if (sizes.size > maxEntries) {
        const oldest = sizes.keys().next()
        if (oldest.done !== true) sizes.delete(oldest.value)
      }
      return !known
    },
    sizeOf(owner, hash) {
      const key = keyOf(owner, hash)
      const size = sizes.get(key)
      if (size !== undefined) {
        sizes.delete(key)
        sizes.set(key, size)
      }
      return size
    },
  }
}

/** Whose uploads a request's chunks count as: the API key, else the user. */
export function possessionOwner(principal: Principal): string {
  if (principal.keyId !== undefined) return `key:${principal.keyId}`
  return `user:${principal.userId ?? 'share'}`
}

/**
 * Throws 400 `BAD_REQUEST` unless `owner` sent every chunk of `chunks` itself, each with the
 * size given: a commit may name only such chunks (see {@link ChunkPossession}).
 */
export function assertPossessed(
  possession: ChunkPossession,
  owner: string,
  chunks: Iterable<{ hash: string; size: number }>,
): void {
  for (const chunk of chunks) {
    const hash = chunk.hash.toLowerCase()
    const size = possession.sizeOf(owner, hash)
    if (size === undefined)
      throw new ServerError(
        'BAD_REQUEST',
        `chunk ${hash} was not sent by this caller: PUT /uploads/chunks/${hash} first`,
      )
    if (size !== chunk.size)
      throw new ServerError('BAD_REQUEST', `chunk ${hash} is ${size} bytes, not ${chunk.size}`)
  }
}
