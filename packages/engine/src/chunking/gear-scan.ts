// The chunker's inner loop: roll the gear hash over a range of bytes until its top bits are
// zero. Everything else in FastCDC is bookkeeping; this loop is where the time goes.
import { GEAR } from './gear-table'
import { createWasmGearScanner } from './gear-scan-wasm'
import type { GearScanner } from './gear-scanner'

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
