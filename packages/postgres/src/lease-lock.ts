import { trySessionLock } from './session-lock'

/** A session advisory lock held on a connection of its own, from {@link tryLeaseLock}. */
export interface HeldLeaseLock {
  /** Aborts when the lock is lost: its connection ended or failed, or it was released. */
  readonly signal: AbortSignal
  /** Ends the connection, which releases the lock. Idempotent. */
  release(): Promise<void>
}

// Two int4 keys: the schema's lock space (apart from the schema lock's and the one-key
// creation lock's) and the lock's name. Two names whose hashes collide exclude each other.
const TRY_LOCK = `SELECT pg_try_advisory_lock(hashtext('svcdb-lease:' || $1), hashtext($2)) AS locked`

/**
 * Takes lock `name` of `schema` on a new connection (outside any pool, since the lock lives
 * as long as the session), or resolves `undefined` when another session holds it; then no
 * connection is left open. Throws what `pg` throws when the server cannot be reached.
 */
export async function tryLeaseLock(
  connectionString: string,
  schema: string,
  name: string,
): Promise<HeldLeaseLock | undefined> {
  const controller = new AbortController()
  const lose = (reason: string) => {
    if (!controller.signal.aborted)
      controller.abort(new Error(`the lock "${name}" was lost: ${reason}`))
  }
  const lock = await trySessionLock(connectionString, TRY_LOCK, [schema, name], lose)
  if (lock === undefined) return undefined
  return {
    signal: controller.signal,
    release() {
      lose('released')
      return lock.release()
    },
  }
}
