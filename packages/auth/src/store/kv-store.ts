import { AuthError, isAuthError } from '../errors'

/** One write of a {@link KvStore} batch; the shape of abstract-level's batch operations. */
export type KvOperation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string }

/**
 * A condition of a guarded {@link KvStore.batch}: just before the batch is written, `key` must
 * hold exactly `expect`, or be absent with `expect: null`.
 */
export interface KvGuard {
  /** The key checked. */
  key: string
  /** The value it must hold; `null`: it must be absent. */
  expect: string | null
}

/** Options of {@link KvStore.batch}. */
export interface KvBatchOptions {
  /**
   * Makes the batch a compare-and-set: it applies only if every guard holds, else it fails
   * with an error {@link KvStore.isConflict} recognises and writes nothing. Honoured only by
   * stores that implement `isConflict`.
   */
  guards?: readonly KvGuard[]
}

/**
 * An ordered string key-value store with atomic batches: the small port under
 * `createKvIdentityStore`. Over abstract-level it is a sublevel with `utf8` keys and values:
 * `get`, `batch`, and an iterator over `{ gte: prefix, lt: <prefix's upper bound> }`.
 * Keys written by this library are ASCII.
 *
 * A store shared by several processes must honour guards and implement `isConflict`: the
 * identity store then makes every atomic operation a compare-and-set that holds across them.
 */
export interface KvStore {
  get(key: string): Promise<string | undefined>
  /** Applies every operation or none; with `guards`, only if every guard holds. */
  batch(operations: readonly KvOperation[], options?: KvBatchOptions): Promise<void>
  /** Every entry whose key starts with `prefix`, in ascending key order. */
  entries(prefix: string): Promise<Array<[key: string, value: string]>>
  /**
   * Present when `batch` honours guards: true for the error a batch failed with because a
   * guard did not hold (another writer got there first), false for any other failure.
   */
  isConflict?(err: unknown): boolean
}

const GUARD_FAILED = 'a guarded batch found a key changed by another writer'

/**
 * A {@link KvStore} in memory, for tests and the in-memory identity store. It honours guards,
 * so several identity stores over one memory store behave as several processes over one
 * shared database.
 */
export function createMemoryKvStore(): KvStore {
  const map = new Map<string, string>()
  return {
    get: (key) => Promise.resolve(map.get(key)),
    batch(operations, options = {}) {
      for (const guard of options.guards ?? []) {
        if ((map.get(guard.key) ?? null) !== guard.expect) {
          return Promise.reject(new AuthError('CONFLICT', GUARD_FAILED))
        }
      }
      for (const op of operations) {
        if (op.type === 'put') map.set(op.key, op.value)
        else map.delete(op.key)
      }
      return Promise.resolve()
    },
    entries(prefix) {
      const found: Array<[string, string]> = []
      for (const entry of map) if (entry[0].startsWith(prefix)) found.push(entry)
      found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      return Promise.resolve(found)
    },
    isConflict: (err) => isAuthError(err, 'CONFLICT') && err.message === GUARD_FAILED,
  }
}
