import type { StoredCounters } from '../stats/engine-stats'
import type { Tally } from './ref-move'

/**
 * The persistent storage counters of an open database. Only this object changes them: commit
 * groups through {@link Counters.apply}, GC and failed writes through the named methods.
 */
export class Counters {
  #value: StoredCounters

  constructor(initial: StoredCounters) {
    this.#value = initial
  }

  /** The counters as they stand (a copy-free read; do not mutate). */
  get value(): Readonly<StoredCounters> {
    return this.#value
  }

  /** The counters after a group's tally, without applying it. */
  after(tally: Tally): StoredCounters {
    return {
      ...this.#value,
      chunks: this.#value.chunks + tally.chunks,
      chunkRawBytes: this.#value.chunkRawBytes + tally.rawBytes,
      chunkStoredBytes: this.#value.chunkStoredBytes + tally.storedBytes,
    }
  }

  /** Applies a durable group's tally. */
  apply(tally: Tally): void {
    this.#value = this.after(tally)
  }

  /** The counters once the chunks of `removed` are gone, without applying it. */
  withoutChunks(removed: Tally): StoredCounters {
    return this.after({
      chunks: -removed.chunks,
      rawBytes: -removed.rawBytes,
      storedBytes: -removed.storedBytes,
    })
  }

  /** Replaces the counters with what a durable GC sweep batch recorded. */
  swept(recorded: StoredCounters): void {
    this.#value = recorded
  }

  /** Replaces the counters with those another node committed (a shared database's reload). */
  reloaded(stored: StoredCounters): void {
    this.#value = stored
  }

  /** Counts bytes stored for a write that then failed (dead until pack compaction). */
  addVoidBytes(bytes: number): void {
    this.#value.voidBytes += bytes
  }

  /** Sets the dead bytes to what pack compaction measured. */
  setVoidBytes(bytes: number): void {
    this.#value.voidBytes = bytes
  }
}
