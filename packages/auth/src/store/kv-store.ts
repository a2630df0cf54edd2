/** One write of a {@link KvStore} batch; the shape of abstract-level's batch operations. */
export type KvOperation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string }

/**
 * An ordered string key-value store with atomic batches: the small port under
 * `createKvIdentityStore`. Over abstract-level it is a sublevel with `utf8` keys and values:
 * `get`, `batch`, and an iterator over `{ gte: prefix, lt: <prefix's upper bound> }`.
 * Keys written by this library are ASCII.
 */
export interface KvStore {
  get(key: string): Promise<string | undefined>
  /** Applies every operation or none. */
  batch(operations: readonly KvOperation[]): Promise<void>
  /** Every entry whose key starts with `prefix`, in ascending key order. */
  entries(prefix: string): Promise<Array<[key: string, value: string]>>
}

/** A {@link KvStore} in memory, for tests and the in-memory identity store. */
export function createMemoryKvStore(): KvStore {
  const map = new Map<string, string>()
  return {
    get: (key) => Promise.resolve(map.get(key)),
    batch(operations) {
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
  }
}
