import type { TokenStorage } from './refresh-token-store'

/** A `Storage` kept in a `Map`, for tests that run without a browser. */
export interface MemoryStorage extends TokenStorage {
  /** Everything stored, to look at in assertions. */
  readonly entries: Map<string, string>
}

/** Creates an empty {@link MemoryStorage}. */
export function createMemoryStorage(): MemoryStorage {
  const entries = new Map<string, string>()
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, String(value)),
    removeItem: (key) => void entries.delete(key),
  }
}
