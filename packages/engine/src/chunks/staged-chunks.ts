import { isEngineError } from '../errors'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { assertChunkHash } from './chunk-record'
import type { ChunkStore } from './chunk-store'
import type { LastSeen } from './last-seen'
import type { StagingTable } from './staging-table'

/** What {@link stagedChunks} answers from: the staged chunks, then the committed ones. */
export interface StagedChunksOptions<T> {
  /** The chunks staged and not yet known to be committed. */
  table: StagingTable<T>
  meta: MetaStore
  /** The space whose entry, keyed by hash, says a chunk is committed. */
  space: 'chunk' | 'chunkidx'
  /** The raw length of a staged chunk. */
  stagedRawLength(staged: T): number
  /** The raw length of a committed chunk, from its entry in `space`. */
  committedRawLength(entry: Uint8Array): number
  assertOpen(): void
  /**
   * Set when the store records `last_seen`: a committed chunk found is stamped as reused (the
   * caller is about to reference it), and one being removed reads as absent.
   */
  lastSeen?: LastSeen
}

/**
 * The part of a {@link ChunkStore} that is the same whatever holds the bytes: a chunk is
 * present when it is staged (unless only committed ones are asked for) or has an entry in
 * the store's space, and removing one forgets its staged entry so it stops answering for it.
 */
export function stagedChunks<T>(
  options: StagedChunksOptions<T>,
): Pick<ChunkStore, 'has' | 'rawSize' | 'removeOps' | 'committed'> {
  const { table, meta, space, assertOpen, lastSeen } = options

  const committedEntry = async (hash: Uint8Array): Promise<Uint8Array | undefined> => {
    const entry = await meta.get(space, hash)
    return entry === undefined || lastSeen === undefined ? entry : lastSeen.refresh(hash, entry)
  }

  return {
    async has(hash, opts) {
      assertOpen()
      assertChunkHash(hash)
      if (opts?.committed !== true && (await table.settled(hash)) !== undefined) return true
      try {
        return (await committedEntry(hash)) !== undefined
      } catch (err) {
        // The refresh kept losing: "absent" is safe (the caller stores it again, and a stage
        // settles any race), "present" from a stale stamp is not.
        if (isEngineError(err, 'CONFLICT')) return false
        throw err
      }
    },

    async rawSize(hash, opts) {
      assertOpen()
      assertChunkHash(hash)
      const entry = opts?.committed === true ? undefined : await table.settled(hash)
      if (entry !== undefined) return options.stagedRawLength(entry)
      const committed = await committedEntry(hash)
      return committed === undefined ? undefined : options.committedRawLength(committed)
    },

    removeOps(hash): MetaOp[] {
      assertOpen()
      assertChunkHash(hash)
      table.forget(hash)
      return [{ type: 'del', space, key: hash.slice() }]
    },

    committed() {
      table.forgetFlushed()
    },
  }
}
