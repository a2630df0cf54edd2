import { EngineError } from '../errors'
import { BINARY_SPACES, TEXT_SPACES } from './meta-store'
import type { MetaOp, Space } from './meta-store'

const binary = new Set<Space>(BINARY_SPACES)
const text = new Set<Space>(TEXT_SPACES)

/**
 * Refuses a batch with an op no store could write (an unknown space, a key of the wrong type,
 * a put without bytes) before it is queued: batches arriving together are written as one, and
 * one caller's bad op must not fail the others'. Nothing of a refused batch is written.
 */
export function checkMetaOps(ops: readonly MetaOp[]): void {
  for (const op of ops) {
    const space: Space = op.space
    if (!binary.has(space) && !text.has(space))
      throw new EngineError('INVALID_INPUT', `metadata batch: no such space as "${String(space)}"`)
    const keyFits = binary.has(space) ? op.key instanceof Uint8Array : typeof op.key === 'string'
    if (!keyFits)
      throw new EngineError(
        'INVALID_INPUT',
        `metadata batch: a key of the wrong type for "${space}"`,
      )
    if (op.type === 'put' && !(op.value instanceof Uint8Array))
      throw new EngineError('INVALID_INPUT', `metadata batch: a put in "${space}" without bytes`)
  }
}
