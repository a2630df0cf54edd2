/** One chunk being stored, or stored but not yet known to be committed. */
export interface StagingEntry<T> {
  /** The stored chunk's details; `undefined` when the chunk was already committed. */
  readonly promise: Promise<T | undefined>
}

interface Slot<T> extends StagingEntry<T> {
  /** Order in which the entry settled; 0 while its work runs. */
  seq: number
}

/** The map key of a chunk hash. */
function keyOf(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex')
}

/**
 * The chunks a store has staged since their batch last committed, shared by both stores.
 * Concurrent stages of one hash find the first one's entry at once (before any await), so the
 * bytes are stored once. Entries are forgotten when a batch that followed a flush commits
 * ({@link StagingTable.forgetFlushed}); forgetting early is harmless (the index answers, or a
 * later stage stores the bytes again), forgetting late only costs memory.
 */
export class StagingTable<T> {
  readonly #slots = new Map<string, Slot<T>>()
  #settled = 0
  #flushed = 0

  /** The entry of `hash`, if one is staged or in flight. */
  get(hash: Uint8Array): StagingEntry<T> | undefined {
    return this.#slots.get(keyOf(hash))
  }

  /** What the staged work for `hash` stored, once settled; `undefined` if none is staged or it failed. */
  async settled(hash: Uint8Array): Promise<T | undefined> {
    const entry = this.get(hash)
    if (entry === undefined) return undefined
    try {
      return await entry.promise
    } catch {
      return undefined
    }
  }

  /**
   * Registers `work` for `hash` and runs it. It resolves to the stored chunk's details, or to
   * `undefined` when the chunk turned out to be committed already (the entry is then dropped,
   * as it is when the work fails).
   */
  start(hash: Uint8Array, work: () => Promise<T | undefined>): StagingEntry<T> {
    const key = keyOf(hash)
    const slot: Slot<T> = {
      seq: 0,
      promise: work().then(
        (value) => {
          if (value === undefined) this.#drop(key, slot)
          else slot.seq = ++this.#settled
          return value
        },
        (err: unknown) => {
          this.#drop(key, slot)
          throw err
        },
      ),
    }
    this.#slots.set(key, slot)
    return slot
  }

  /** A mark covering every entry settled so far; take it before a flush starts. */
  mark(): number {
    return this.#settled
  }

  /** Records that a flush made every entry up to `mark` durable. */
  flushed(mark: number): void {
    if (mark > this.#flushed) this.#flushed = mark
  }

  /** Forgets the entries the last flush covered: their batch has committed. */
  forgetFlushed(): void {
    for (const [key, slot] of this.#slots) {
      if (slot.seq !== 0 && slot.seq <= this.#flushed) this.#slots.delete(key)
    }
  }

  /** Forgets the entry of `hash`: its chunk is being removed, so it must not answer for it. */
  forget(hash: Uint8Array): void {
    this.#slots.delete(keyOf(hash))
  }

  /** Every entry, staged or in flight. */
  entries(): StagingEntry<T>[] {
    return [...this.#slots.values()]
  }

  /** Forgets everything (after a failed flush, so later stages store their bytes again). */
  clear(): void {
    this.#slots.clear()
  }

  /** Number of entries, staged or in flight. */
  get size(): number {
    return this.#slots.size
  }

  #drop(key: string, slot: Slot<T>): void {
    if (this.#slots.get(key) === slot) this.#slots.delete(key)
  }
}
