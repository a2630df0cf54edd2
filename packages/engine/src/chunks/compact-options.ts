import { EngineError } from '../errors'
import type { CompactOptions } from './chunk-store'

/** The dead share from which a pack is rewritten when the caller names none. */
export const DEFAULT_MIN_DEAD_RATIO = 0.5

/** Throws `RangeError` for a `minDeadRatio` outside `[0, 1]`; returns the ratio to use. */
export function checkCompactOptions(options: CompactOptions): number {
  const ratio = options.minDeadRatio ?? DEFAULT_MIN_DEAD_RATIO
  if (!(ratio >= 0 && ratio <= 1)) {
    throw new RangeError(`minDeadRatio must be between 0 and 1, got ${ratio}`)
  }
  return ratio
}

/** Throws `ABORTED` once `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new EngineError('ABORTED', 'the compaction was cancelled', { cause: signal.reason })
  }
}
