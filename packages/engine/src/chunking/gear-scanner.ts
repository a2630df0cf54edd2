/**
 * Rolls FastCDC's gear hash (`hash = (hash << 1) + GEAR[byte]`, 32 bits) over a range of bytes.
 * Implementations must agree bit for bit: the cut points are part of the storage format.
 */
export interface GearScanner {
  /**
   * Rolls `hash` over `data[from, to)` and returns the index just past the first byte after
   * which `hash & mask` is zero, or -1 when no byte in the range gives that; `this.hash` then
   * holds the hash rolled over the whole range. Requires `0 <= from <= to <= data.length`.
   */
  scan(data: Uint8Array, from: number, to: number, hash: number, mask: number): number
  /** The rolled hash after the last scan that returned -1. */
  readonly hash: number
}
