import pg from 'pg'

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
// PostgreSQL 14+ may end idle sessions; this one idles while the job runs elsewhere.
const KEEP_IDLE_SESSION = `SELECT set_config(name, '0', false) FROM pg_settings WHERE name = 'idle_session_timeout'`

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
  // Keepalive makes a connection that silently vanished end, so the job learns of the loss.
  const client = new pg.Client({ connectionString, keepAlive: true })
  const controller = new AbortController()
  const lose = (reason: string) => {
    if (!controller.signal.aborted)
      controller.abort(new Error(`the lock "${name}" was lost: ${reason}`))
  }
  // Without a listener an 'error' on an idle client would crash the process.
  client.on('error', (err) => lose(err.message))
  client.on('end', () => lose('its connection ended'))

  let locked = false
  try {
    await client.connect()
    await client.query(KEEP_IDLE_SESSION)
    const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK, [schema, name])
    locked = rows[0]?.locked === true
  } finally {
    if (!locked) {
      controller.abort()
      await client.end().catch(() => undefined)
    }
  }
  if (!locked) return undefined

  let releasing: Promise<void> | undefined
  return {
    signal: controller.signal,
    release() {
      lose('released')
      releasing ??= client.end().catch(() => undefined)
      return releasing
    },
  }
}
