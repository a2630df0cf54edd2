/**
 * What a running garbage collection must learn from the write path: every root that became
 * reachable since it started marking (its re-mark set). Also keeps what the latest
 * collection reclaimed, for stats. Only GC starts and stops the watch; the composition root
 * reports roots through {@link GcWatch.add}.
 */
export class GcWatch {
  #roots: Uint8Array[] | undefined
  #lastReclaimedBytes = 0

  /** True while a collection runs. */
  get running(): boolean {
    return this.#roots !== undefined
  }

  /** Bytes the latest garbage collection reclaimed. */
  get lastReclaimedBytes(): number {
    return this.#lastReclaimedBytes
  }

  /** Starts collecting new roots for a collection. */
  start(): void {
    this.#roots = []
  }

  /** Ends the collection's watch. */
  stop(): void {
    this.#roots = undefined
  }

  /** Records roots that became reachable; ignored when no collection runs. */
  add(...roots: Uint8Array[]): void {
    this.#roots?.push(...roots)
  }

  /** The roots added since the last call, removed from the set. */
  take(): Uint8Array[] {
    return (this.#roots ?? []).splice(0)
  }

  /** Records what a finished (not dry-run) collection reclaimed. */
  reclaimed(bytes: number): void {
    this.#lastReclaimedBytes = bytes
  }
}
