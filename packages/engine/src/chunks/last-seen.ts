import { EngineError, isEngineError } from '../errors'
import type { Clock } from '../internal/clock'
import type { MetaStore } from '../meta/meta-store'

/**
 * Options of a chunk store that records `last_seen` for a cluster GC: when a node last
 * stored or reused each chunk. Set it on the chunk stores of a database opened `shared`.
 */
export interface LastSeenOptions {
  /** The clock stamps are taken from (default `Date.now`; nodes' clocks must agree to well within the GC grace). */
  clock?: Clock
  /**
   * A chunk reused (found by a stage, `has()` or `rawSize()`) whose `last_seen` is older
   * than this is stamped again, with a guarded write. Default 15 min. The GC grace must be
   * at least twice this (`Database.open` checks it).
   */
  refreshMs?: number
}

/** Default {@link LastSeenOptions.refreshMs}: a quarter of the default GC grace. */
export const DEFAULT_LAST_SEEN_REFRESH_MS = 15 * 60 * 1000

/** How a store reads and restamps the `last_seen` of its entries. */
export interface LastSeenCodec {
  /** The entry's `last_seen` (0 when never recorded), or `undefined` when it is no live chunk (a tombstone). */
  lastSeenOf(value: Uint8Array): number | undefined
  /** The entry with `last_seen` set to `at`. */
  withLastSeen(value: Uint8Array, at: number): Uint8Array
}

/** A store's resolved `last_seen` settings and its refresh. */
export interface LastSeen {
  readonly clock: Clock
  readonly refreshMs: number
  /**
   * The committed entry `value` of `hash`, stamped again when its `last_seen` is older than
   * `refreshMs`: a write guarded on `value`, so a GC removing the entry meanwhile (guarded on
   * the same value) and this refresh never both succeed. Returns the entry as stored after,
   * or `undefined` when the chunk turned out removed (or being removed).
   *
   * A lost write is retried on a fresh read, which usually settles it (the winner stamped it
   * fresh, or a GC removed it). Only writers that keep putting a stale stamp make it give up,
   * after `REFRESH_ATTEMPTS`, with a retryable `CONFLICT`: answering "present" from a stale
   * stamp is not safe (the GC may remove the chunk before the caller's commit names it).
   */
  refresh(hash: Uint8Array, value: Uint8Array): Promise<Uint8Array | undefined>
}

/** Writes lost before a refresh gives up (each loss means another writer won; see `refresh`). */
const REFRESH_ATTEMPTS = 8

/** Resolves {@link LastSeenOptions} for a store keeping its entries in `space` of `meta`. */
export function createLastSeen(
  meta: MetaStore,
  space: 'chunk' | 'chunkidx',
  codec: LastSeenCodec,
  options: LastSeenOptions,
): LastSeen {
  const clock = options.clock ?? { now: () => Date.now() }
  const refreshMs = options.refreshMs ?? DEFAULT_LAST_SEEN_REFRESH_MS
  if (!(Number.isSafeInteger(refreshMs) && refreshMs > 0))
    throw new RangeError(`lastSeen.refreshMs must be a positive integer, got ${refreshMs}`)
  return {
    clock,
    refreshMs,
    async refresh(hash, value) {
      let current: Uint8Array | undefined = value
      for (let attempt = 1; current !== undefined; attempt++) {
        const seen = codec.lastSeenOf(current)
        if (seen === undefined) return undefined
        const now = clock.now()
        if (seen > now - refreshMs) return current
        const next = codec.withLastSeen(current, now)
        try {
          await meta.batch([{ type: 'put', space, key: hash.slice(), value: next }], {
            sync: true,
            guards: [{ space, key: hash, expect: current }],
          })
          return next
        } catch (err) {
          if (!isEngineError(err, 'CONFLICT')) throw err
          if (attempt === REFRESH_ATTEMPTS)
            throw new EngineError(
              'CONFLICT',
              `the last_seen of chunk ${Buffer.from(hash).toString('hex')} kept changing (${attempt} refreshes lost); try again`,
              { cause: err },
            )
        }
        current = await meta.get(space, hash)
      }
      return undefined
    },
  }
}

/** `at` (Unix ms) as the 8 bytes ending an entry (float64, little-endian: exact for ms). */
export function encodeStamp(at: number): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setFloat64(0, at, true)
  return out
}

/** The stamp stored at `offset` of `bytes`. */
export function decodeStamp(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getFloat64(0, true)
}
