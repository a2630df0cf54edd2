import { EngineError } from '../errors'
import type { MetaGuard } from './meta-store'

/**
 * True when a key whose stored value is `stored` (`undefined`: absent) meets a guard's
 * `expect`: both absent, or the same bytes.
 */
export function guardHolds(stored: Uint8Array | undefined, expect: Uint8Array | null): boolean {
  if (expect === null || stored === undefined) return expect === null && stored === undefined
  return Buffer.compare(stored, expect) === 0
}

/**
 * The `CONFLICT` a batch fails with when `guard` does not hold against `stored`: every
 * MetaStore driver words it the same way.
 */
export function guardConflict(guard: MetaGuard, stored: Uint8Array | undefined): EngineError {
  const key =
    typeof guard.key === 'string'
      ? JSON.stringify(guard.key)
      : Buffer.from(guard.key).toString('hex')
  const found =
    stored === undefined
      ? 'the key is absent'
      : guard.expect === null
        ? 'the key is present'
        : 'another value is stored'
  return new EngineError(
    'CONFLICT',
    `metadata batch: the guard on key ${key} of "${guard.space}" does not hold (${found})`,
  )
}
