import type { Clock } from '../internal/clock'
import type { GcFence } from '../commit/gc-fence'
import { toHex } from '../internal/hex'

/** How long a chunk sent or confirmed for an upload stays safe from GC by default (1 hour). */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000
/** Most chunks held at once; the oldest go first beyond it. */
export const UPLOAD_GRACE_ENTRIES = 100_000

/**
 * Keeps the chunks of uploads in progress from GC between their steps. An upload checks which
 * chunks are stored, sends the others, then commits a file naming them all; until the commit,
 * nothing references those chunks, so an online GC in between would sweep them and the
 * commit would fail. Each chunk sent (`putChunk`) or reported as stored (`missingChunks`) is
 * pinned in the GC fence for a grace window, renewed on every use. Bounded in count: an
 * upload slower than the window, or pushed out by many others, has to send a chunk again.
 */
export class UploadGrace {
  // Insertion order is expiry order: a renewed hash is moved to the end.
  private readonly expiries = new Map<string, number>()

  constructor(
    private readonly fence: GcFence,
    private readonly clock: Clock,
    private readonly windowMs = UPLOAD_GRACE_MS,
    private readonly maxEntries = UPLOAD_GRACE_ENTRIES,
  ) {
    fence.onBeforeSweep(() => this.release())
  }

  /**
   * Pins `hash` (again) for the window. Resolves at once unless GC is deleting that very
   * chunk right now; it then resolves once it is gone, so the caller's existence check that
   * follows sees the truth.
   */
  hold(hash: Uint8Array): Promise<void> | undefined {
    this.release()
    const key = toHex(hash)
    const held = this.expiries.delete(key)
    this.expiries.set(key, this.clock.now() + this.windowMs)
    // A renewed hash is already pinned once; a new one is pinned now.
    const sweeping = held ? undefined : this.fence.pin(key)
    if (this.expiries.size > this.maxEntries) this.drop(this.expiries.keys().next().value)
    return sweeping
  }

  /** How many chunks are held. */
  get size(): number {
    this.release()
    return this.expiries.size
  }

  /** Unpins what has expired. */
  private release(): void {
    const now = this.clock.now()
    for (const [key, expiry] of this.expiries) {
      if (expiry > now) break
      this.drop(key)
    }
  }

  private drop(key: string | undefined): void {
    if (key === undefined || !this.expiries.delete(key)) return
    this.fence.unpin(key)
  }
}
