import { LruCache } from '../internal/lru-cache'
import { isEngineError } from '../errors'
import type { ChunkStore, StageResult } from './chunk-store'
import type { ChunkSweep } from './chunk-sweep'
import { tieredChunkSweep } from './tiered-chunk-sweep'

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
  /**
   * Memory for small chunks read recently (default 32 MiB; 0 turns the cache off). A hot
   * small file is then served without a LevelDB read; chunks are immutable, so a cached one
   * is never stale, and GC's removals drop it.
   */
  cacheBytes?: number
}

/** Default memory of the small-chunk read cache. */
export const DEFAULT_CHUNK_CACHE_BYTES = 32 * 1024 * 1024

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
  const cacheBytes = options.cacheBytes ?? DEFAULT_CHUNK_CACHE_BYTES
  const cache = cacheBytes > 0 ? new LruCache<string, Uint8Array>(cacheBytes) : undefined
  const keyOf = (hash: Uint8Array) =>
    Buffer.from(hash.buffer, hash.byteOffset, hash.length).toString('latin1')
  const readSmall = async (hash: Uint8Array, bypass: boolean | undefined) => {
    if (cache === undefined) return small.read(hash)
    const key = keyOf(hash)
    const hit = bypass === true ? undefined : cache.get(key)
    // A copy: callers may keep or change what they read; the cache's bytes must not change.
    if (hit !== undefined) return new Uint8Array(hit)
    const bytes = await small.read(hash)
    // `new Uint8Array(bytes)` copies; `slice()` on a Buffer would only make a view.
    cache.set(key, new Uint8Array(bytes), bytes.length + 64)
    return bytes
  }
  // Removed chunks leave the small-chunk cache, as with removeOps.
  const tieredSweep = (a: ChunkSweep, b: ChunkSweep): ChunkSweep => {
    const sweep = tieredChunkSweep(a, b, 'chunk')
    return {
      ...sweep,
      removal(entries) {
        for (const { hash } of entries) cache?.delete(keyOf(hash))
        return sweep.removal(entries)
      },
    }
  }

  return {
    kind: 'tiered',
    async has(hash, options) {
      return (await small.has(hash, options)) || large.has(hash, options)
    },
    async rawSize(hash, options) {
      return (await small.rawSize(hash, options)) ?? large.rawSize(hash, options)
    },
    async read(hash, options) {
      // A chunk larger than the inline limit belongs in the large tier: look there first. The
      // size is only a hint (a file's record could be wrong), so a miss tries the other tier.
      if (options?.size !== undefined && options.size > inline) {
        try {
          return await large.read(hash)
        } catch (err) {
          if (!isEngineError(err, 'NOT_FOUND')) throw err
          return readSmall(hash, options.bypassCache)
        }
      }
      try {
        return await readSmall(hash, options?.bypassCache)
      } catch (err) {
        if (!isEngineError(err, 'NOT_FOUND')) throw err
        return large.read(hash)
      }
    },
    async readMany(hashes, options) {
      // Chunks a file's list says are large are read together from the large tier, whose
      // records of one upload sit side by side; the others (a file's small tail, unknown
      // sizes), and everything after a miss there, go chunk by chunk through `read`.
      const sizes = options?.sizes
      const one = (i: number): Promise<Uint8Array> => {
        const size = sizes?.[i]
        return this.read(hashes[i] as Uint8Array, {
          ...(size === undefined ? {} : { size }),
          ...(options?.bypassCache === undefined ? {} : { bypassCache: options.bypassCache }),
        })
      }
      const out = new Array<Uint8Array>(hashes.length)
      const largeAt: number[] = []
      const others: number[] = []
      hashes.forEach((_, i) => ((sizes?.[i] ?? 0) > inline ? largeAt : others).push(i))
      const readLarge = async (): Promise<void> => {
        if (large.readMany !== undefined && largeAt.length > 1) {
          try {
            const parts = await large.readMany(
              largeAt.map((i) => hashes[i] as Uint8Array),
              options?.buffers === undefined ? {} : { buffers: options.buffers },
            )
            parts.forEach((part, j) => (out[largeAt[j] as number] = part))
            return
          } catch (err) {
            if (!isEngineError(err, 'NOT_FOUND')) throw err
          }
        }
        await Promise.all(largeAt.map(async (i) => (out[i] = await one(i))))
      }
      await Promise.all([readLarge(), ...others.map(async (i) => (out[i] = await one(i)))])
      return out
    },
    stage(hash, bytes): Promise<StageResult> {
      return bytes.length <= inline ? small.stage(hash, bytes) : large.stage(hash, bytes)
    },
    async stageMany(items) {
      // The large chunks go to the large tier in one call, so it keeps them side by side.
      const isLarge = (bytes: Uint8Array) => bytes.length > inline
      const larger = items.filter(({ bytes }) => isLarge(bytes))
      // Settles once both tiers have (the caller may then reuse the bytes).
      const [largeDone, smallDone] = await Promise.allSettled([
        larger.length === 0
          ? []
          : (large.stageMany?.(larger) ??
            Promise.all(larger.map(({ hash, bytes }) => large.stage(hash, bytes)))),
        Promise.all(
          items
            .filter(({ bytes }) => !isLarge(bytes))
            .map(({ hash, bytes }) => small.stage(hash, bytes)),
        ),
      ])
      if (largeDone.status === 'rejected') throw largeDone.reason
      if (smallDone.status === 'rejected') throw smallDone.reason
      const fromLarge = largeDone.value
      const fromSmall = smallDone.value
      let l = 0
      let s = 0
      return items.map(({ bytes }) =>
        isLarge(bytes) ? (fromLarge[l++] as StageResult) : (fromSmall[s++] as StageResult),
      )
    },
    async *entries() {
      yield* small.entries()
      yield* large.entries()
    },
    ...(small.sweep === undefined || large.sweep === undefined
      ? {}
      : { sweep: tieredSweep(small.sweep, large.sweep) }),
    removeOps(hash) {
      cache?.delete(keyOf(hash))
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
