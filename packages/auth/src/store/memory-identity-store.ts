import type { IdentityStore } from './identity-store'
import { createKvIdentityStore } from './kv-identity-store'
import { createMemoryKvStore } from './kv-store'

/**
 * An {@link IdentityStore} kept in memory: the key-value implementation over a sorted map.
 * For tests, `--auth disabled` and embedded use; everything is lost when the process ends.
 */
export function createMemoryIdentityStore(): IdentityStore {
  return createKvIdentityStore(createMemoryKvStore())
}
