import { createKvIdentityStore } from '@svcdb/auth'
import type { IdentityStore, KvStore } from '@svcdb/auth'
import { Database, isEngineError } from '@svcdb/engine'
import type { SystemStore } from '@svcdb/engine'

/** An identity store in its own database directory, from {@link openFileIdentityStore}. */
export interface FileIdentityStore {
  readonly store: IdentityStore
  /** Closes the identity database; the store is unusable afterwards. */
  close(): Promise<void>
}

// Auth writes ASCII keys only (its layout URI-encodes every variable part), so the
// system store's prefix scan sees all of them and byte order equals string order. Guards
// pass through: the engine's guarded batch is a compare-and-set that holds across every node
// of a shared database, failing with CONFLICT, which auth re-runs its section on.
const asKvStore = (system: SystemStore): KvStore => ({
  get: (key) => system.get(key),
  batch: (operations, options) =>
    system.batch(operations, options?.guards === undefined ? {} : { guards: options.guards }),
  entries: (prefix) => system.entries(prefix),
  isConflict: (err) => isEngineError(err, 'CONFLICT'),
})

/**
 * The {@link IdentityStore} of `--auth self-contained`: users, groups, keys, tokens and
 * shares in namespace `auth` of the database's system store, next to the data they guard.
 * Every batch is durable when it resolves. Its atomic operations are compare-and-set batches,
 * so several processes (nodes of a shared database) may each have one: of racing uniqueness
 * checks, rotations, code uses or first root keys, exactly one wins. Create one store per
 * database per process (an in-process lock spares it conflicts with itself); pair it with
 * `auth.checkExternalChanges()` on the metadata store's `watch` to see other nodes' changes.
 *
 * @example
 * const auth = createAuth({ store: createEngineIdentityStore(db) })
 */
export function createEngineIdentityStore(db: Database): IdentityStore {
  return createKvIdentityStore(asKvStore(db.systemStore('auth')))
}

/**
 * The identity store of `--auth file://<path>`: a separate database directory at `path`,
 * created if absent, holding identity only. A second process opening the same directory
 * fails with the engine's "database is locked" error.
 *
 * @example
 * const identity = await openFileIdentityStore('/var/lib/svcdb/identity')
 * try { ... } finally { await identity.close() }
 */
export async function openFileIdentityStore(path: string): Promise<FileIdentityStore> {
  const db = await Database.open({ path })
  return { store: createEngineIdentityStore(db), close: () => db.close() }
}
