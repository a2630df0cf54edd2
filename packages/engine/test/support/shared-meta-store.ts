import { EngineError } from '../../src/errors'
import { COMMIT_TOKEN_KEY } from '../../src/meta/keys'
import type { MetaStore } from '../../src/meta/meta-store'

/**
 * A view of `meta` that forwards everything but `close()`: a database closes the store it is
 * given, so databases sharing one store in a test each get a view, and the test closes the
 * store itself.
 */
export function unclosedView(meta: MetaStore): MetaStore {
  return {
    get: (space, key) => meta.get(space, key),
    getMany: (space, keys) => meta.getMany(space, keys),
    batch: (ops, options) => meta.batch(ops, options),
    iterate: (space, range) => meta.iterate(space, range),
    keys: (space, range) => meta.keys(space, range),
    close: async () => undefined,
  }
}

/**
 * A view of `meta` that counts calls (to show what a non-shared database does not read) and
 * can make every guarded batch lose (`CONFLICT`), as if other nodes always committed first.
 */
export function countingView(
  meta: MetaStore,
  options: { loseGuarded?: () => boolean } = {},
): MetaStore & { calls: { tokenReads: number; guarded: number; batches: number } } {
  const calls = { tokenReads: 0, guarded: 0, batches: 0 }
  return {
    calls,
    get: (space, key) => {
      if (space === 'meta' && key === COMMIT_TOKEN_KEY) calls.tokenReads++
      return meta.get(space, key)
    },
    getMany: (space, keys) => meta.getMany(space, keys),
    batch: async (ops, batchOptions) => {
      calls.batches++
      if (batchOptions.guards !== undefined && batchOptions.guards.length > 0) {
        calls.guarded++
        if (options.loseGuarded?.() === true) {
          throw new EngineError('CONFLICT', 'another node committed first (simulated)')
        }
      }
      return meta.batch(ops, batchOptions)
    },
    iterate: (space, range) => meta.iterate(space, range),
    keys: (space, range) => meta.keys(space, range),
    close: async () => undefined,
  }
}
