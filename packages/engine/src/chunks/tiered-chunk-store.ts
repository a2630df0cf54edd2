import { isEngineError } from '../errors'
import type { ChunkStore, StageResult } from './chunk-store'

/** Chunks up to this size live inline in the metadata store by default (16 KiB, the chunker's minimum). */
export const DEFAULT_INLINE_CHUNK_BYTES = 16 * 1024

/** Options of {@link createTieredChunkStore}. */
export interface TieredChunkStoreOptions {
  /** Where small chunks go: the level store, committed in the metadata batch itself. */
  small: ChunkStore
  /** Where larger chunks go: the pack store. */
  large: ChunkStore
  /** Largest chunk kept in `small`, in bytes. */
  inlineBytes?: number
}

/**
 * Sends small chunks to the metadata store and large ones to pack files. A group of small
 * writes then costs one fsync (the synced metadata batch) instead of two (pack fdatasync,
 * then batch), and reading a small file is one lookup. Large chunks still never go through
 * LevelDB, whose compaction would rewrite them (DESIGN §3.1). Lookups try the small store
 * first: a miss there is a cheap in-memory bloom-filter check before a large read.
 */
export function createTieredChunkStore(options: TieredChunkStoreOptions): ChunkStore {
  const { small, large } = options
  const inline = options.inlineBytes ?? DEFAULT_INLINE_CHUNK_BYTES
  return {
    kind: 'tiered',
    async has(hash, options) {
      return (await small.has(hash, options)) || large.has(hash, options)
    },
    async read(hash, options) {
      // A chunk larger than the inline limit can only be in the large tier.
      if (options?.size !== undefined && options.size > inline) return large.read(hash)
      try {
        return await small.read(hash)
      } catch (err) {
        if (!isEngineError(err, 'NOT_FOUND')) throw err
        return large.read(hash)
      }
    },
    stage(hash, bytes): Promise<StageResult> {
      return bytes.length <= inline ? small.stage(hash, bytes) : large.stage(hash, bytes)
    },
    async *entries() {
      yield* small.entries()
      yield* large.entries()
    },
    removeOps(hash) {
      // Only one tier holds the chunk; deleting it from the other is a harmless no-op.
      return [...small.removeOps(hash), ...large.removeOps(hash)]
    },
    async compact(options) {
      // Both start at the call: the pack store takes its snapshot there (see ChunkStore.compact).
      const [a, b] = await Promise.all([small.compact(options), large.compact(options)])
      return {
        packsRewritten: a.packsRewritten + b.packsRewritten,
        packsRemoved: a.packsRemoved + b.packsRemoved,
        movedBytes: a.movedBytes + b.movedBytes,
        reclaimedBytes: a.reclaimedBytes + b.reclaimedBytes,
        deadBytes: a.deadBytes + b.deadBytes,
      }
    },
    async flush() {
      const [a, b] = await Promise.all([small.flush(), large.flush()])
      return [...a, ...b]
    },
    committed() {
      small.committed()
      large.committed()
    },
    async close() {
      await Promise.all([small.close(), large.close()])
    },
  }
}
