/** Whether writes currently fail for lack of space; see {@link createStorageHealth}. */
export interface StorageHealth {
  /** True from an `INSUFFICIENT_STORAGE` failure until the next successful write. */
  full(): boolean
  /** Notes an error answered to a client; only `INSUFFICIENT_STORAGE` matters. */
  observeError(err: unknown): void
  /** Notes a durable write (a commit): space is available again. */
  writeSucceeded(): void
}

/** Options of {@link createStorageHealth}. */
export interface StorageHealthOptions {
  /** Told when the state flips, with the failure that made the storage full. */
  onTransition?: (full: boolean, err?: unknown) => void
}

/**
 * Health's view of the disk: sampled usage lags, and a device can be full with usage under
 * any threshold (quotas, other processes), so a failed write is the evidence that turns
 * health `degraded` and a successful one the evidence that turns it back.
 */
export function createStorageHealth(options: StorageHealthOptions = {}): StorageHealth {
  let full = false
  return {
    full: () => full,
    observeError(err) {
      if (full || (err as { code?: unknown } | null)?.code !== 'INSUFFICIENT_STORAGE') return
      full = true
      options.onTransition?.(true, err)
    },
    writeSucceeded() {
      if (!full) return
      full = false
      options.onTransition?.(false)
    },
  }
}
