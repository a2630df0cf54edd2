// The chunker's inner loop: roll the gear hash over a range of bytes until its top bits are
// zero. Everything else in FastCDC is bookkeeping; this loop is where the time goes.
import { GEAR } from './gear-table'
import { createWasmGearScanner } from './gear-scan-wasm'

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

/** The loop in plain JavaScript: for runtimes without WebAssembly (or where a CSP forbids it). */
export function createJsGearScanner(): GearScanner {
  const gear = GEAR
  let rolled = 0
  return {
    get hash() {
      return rolled
    },
    scan(data, from, to, hash, mask) {
      let h = hash | 0
      for (let i = from; i < to; i++) {
        h = ((h << 1) + (gear[data[i] as number] as number)) | 0
        if ((h & mask) === 0) return i + 1
      }
      rolled = h
      return -1
    },
  }
}

let shared: GearScanner | undefined

/**
 * The fastest scanner this runtime offers, made once and shared (scans are synchronous, so
 * chunkers never interleave inside one): WebAssembly (≈ 3× the JavaScript loop, which V8 keeps
 * re-checking typed arrays in) or, failing that, plain JavaScript.
 */
export function defaultGearScanner(): GearScanner {
  shared ??= createWasmGearScanner() ?? createJsGearScanner()
  return shared
}
