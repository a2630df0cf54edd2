import { toHex } from '../internal/hex'

/**
 * Keeps garbage collection from deleting what a running operation is about to reference
 * (DESIGN §3.6: "in-flight writes"). An operation takes a {@link Lease} and adds every
 * existing chunk or object it will point at *before* it checks that the thing exists; the
 * sweep skips leased hashes. Adding a hash whose deletion is being committed waits until it
 * is gone, so the operation's existence check then sees the truth and stores it again.
 * Everything here is synchronous up to the returned promise, which is what makes the
 * check-then-delete of the sweep and the pin-then-check of a writer exclusive.
 */
export class GcFence {
  private readonly pins = new Map<string, number>()
  private sweeping: Set<string> | undefined
  private sweepDone: Promise<void> = Promise.resolve()
  private readonly expirers: Array<() => void> = []

  /**
   * Registers `expire`, run before every sweep and every listing of the pins, to unpin what
   * was pinned for a while only and has lapsed (uploads' grace window).
   */
  onBeforeSweep(expire: () => void): void {
    this.expirers.push(expire)
  }

  /** A new, empty lease. */
  lease(): Lease {
    return new Lease(this)
  }

  /** Every pinned hash, as hex. */
  pinnedKeys(): string[] {
    for (const expire of this.expirers) expire()
    return [...this.pins.keys()]
  }

  /** True when an operation holds `key` (a hex hash). */
  isPinned(key: string): boolean {
    return this.pins.has(key)
  }

  /**
   * Runs `remove` for the keys not pinned at the moment of the call; stages that arrive
   * meanwhile for those keys wait for it. Returns the keys removed.
   */
  async sweep(
    candidates: Iterable<string>,
    remove: (keys: string[]) => Promise<void>,
  ): Promise<string[]> {
    for (const expire of this.expirers) expire()
    const keys = [...candidates].filter((key) => !this.pins.has(key))
    if (keys.length === 0) return keys
    this.sweeping = new Set(keys)
    let done = (): void => undefined
    this.sweepDone = new Promise<void>((resolve) => (done = resolve))
    try {
      await remove(keys)
      return keys
    } finally {
      this.sweeping = undefined
      done()
    }
  }

  /** @internal */
  pin(key: string): Promise<void> | undefined {
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1)
    return this.sweeping?.has(key) === true ? this.sweepDone : undefined
  }

  /** @internal */
  unpin(key: string): void {
    const count = this.pins.get(key) ?? 0
    if (count <= 1) this.pins.delete(key)
    else this.pins.set(key, count - 1)
  }
}

/** The hashes one operation references, pinned until {@link Lease.release}. */
export class Lease {
  private readonly keys: string[] = []

  constructor(private readonly fence: GcFence) {}

  /** Pins `hash`; resolves at once unless the hash is being swept right now. */
  add(hash: Uint8Array): Promise<void> | undefined {
    const key = toHex(hash)
    this.keys.push(key)
    return this.fence.pin(key)
  }

  /** Unpins everything; call once the operation committed or failed. */
  release(): void {
    for (const key of this.keys.splice(0)) this.fence.unpin(key)
  }
}
