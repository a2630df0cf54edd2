import { EngineError } from '../errors'
import { BINARY_SPACES, TEXT_SPACES } from './meta-store'
import type { MetaGuard, MetaOp, Space } from './meta-store'

const binary = new Set<Space>(BINARY_SPACES)
const text = new Set<Space>(TEXT_SPACES)

/**
 * Refuses a batch with an op or guard no store could take (an unknown space, a key of the
 * wrong type, a put without bytes, a guard expecting neither bytes nor `null`) before it is
 * queued: batches arriving together are written as one, and one caller's bad op must not fail
 * the others'. Nothing of a refused batch is written.
 */
export function checkMetaOps(ops: readonly MetaOp[], guards?: readonly MetaGuard[]): void {
  for (const op of ops) {
    checkKey('metadata batch', op)
    if (op.type === 'put' && !(op.value instanceof Uint8Array))
      throw new EngineError('INVALID_INPUT', `metadata batch: a put in "${op.space}" without bytes`)
  }
  if (guards === undefined) return
  if (!Array.isArray(guards))
    throw new EngineError('INVALID_INPUT', 'metadata batch: guards must be an array')
  for (const guard of guards) {
    if (typeof guard !== 'object' || guard === null)
      throw new EngineError('INVALID_INPUT', 'metadata batch: a guard that is not an object')
    checkKey('metadata guard', guard)
    if (guard.expect !== null && !(guard.expect instanceof Uint8Array))
      throw new EngineError(
        'INVALID_INPUT',
        `metadata guard: in "${guard.space}" expects neither bytes nor null`,
      )
  }
}

function checkKey(what: string, entry: MetaOp | MetaGuard): void {
  const space: Space = entry.space
  if (!binary.has(space) && !text.has(space))
    throw new EngineError('INVALID_INPUT', `${what}: no such space as "${String(space)}"`)
  const keyFits = binary.has(space)
    ? entry.key instanceof Uint8Array
    : typeof entry.key === 'string'
  if (!keyFits)
    throw new EngineError('INVALID_INPUT', `${what}: a key of the wrong type for "${space}"`)
}
