const KEY = 32

/**
 * A set of 32-byte hashes in flat typed arrays (open addressing, linear probing): about 45
 * bytes per hash where a `Set` of hex strings takes over 100, which matters when GC marks or
 * an export walks millions of objects. Hashes are uniformly distributed, so their first four
 * bytes are a good slot index as they are.
 */
export class HashSet {
  private keys: Uint8Array
  private used: Uint8Array
  private mask: number
  private count = 0

  constructor(capacity = 1024) {
    let size = 16
    while (size < capacity * 2) size *= 2
    this.keys = new Uint8Array(size * KEY)
    this.used = new Uint8Array(size)
    this.mask = size - 1
  }

  get size(): number {
    return this.count
  }

  has(hash: Uint8Array): boolean {
    return this.slot(hash) < 0
  }

  /** Adds `hash`; false when it was already there. */
  add(hash: Uint8Array): boolean {
    if (hash.length !== KEY) throw new RangeError(`hash must be ${KEY} bytes, got ${hash.length}`)
    const slot = this.slot(hash)
    if (slot < 0) return false
    this.keys.set(hash, slot * KEY)
    this.used[slot] = 1
    this.count++
    if (this.count * 10 > this.used.length * 7) this.grow()
    return true
  }

  /** Every hash, in no particular order (copies). */
  *values(): Generator<Uint8Array> {
    for (let i = 0; i < this.used.length; i++) {
      if (this.used[i] === 1) yield this.keys.slice(i * KEY, i * KEY + KEY)
    }
  }

  /** The free slot for `hash`, or -1 - slot when it is present. */
  private slot(hash: Uint8Array): number {
    let i =
      (((hash[0] as number) << 24) |
        ((hash[1] as number) << 16) |
        ((hash[2] as number) << 8) |
        (hash[3] as number)) &
      this.mask
    const { keys, used } = this
    for (;;) {
      if (used[i] === 0) return i
      const at = i * KEY
      let same = true
      for (let j = 0; j < KEY; j++) {
        if (keys[at + j] !== hash[j]) {
          same = false
          break
        }
      }
      if (same) return -1 - i
      i = (i + 1) & this.mask
    }
  }

  private grow(): void {
    const old = { keys: this.keys, used: this.used }
    const size = this.used.length * 2
    this.keys = new Uint8Array(size * KEY)
    this.used = new Uint8Array(size)
    this.mask = size - 1
    this.count = 0
    for (let i = 0; i < old.used.length; i++) {
      if (old.used[i] === 1) this.add(old.keys.subarray(i * KEY, i * KEY + KEY))
    }
  }
}
