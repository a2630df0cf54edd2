import pg from 'pg'

/** A session advisory lock held on a connection of its own, from {@link trySessionLock}. */
export interface SessionLock {
  /** Ends the connection, which releases the lock; no loss is reported after. Idempotent. */
  release(): Promise<void>
}

const KEEPALIVE_DELAY_MS = 10_000
const PING_INTERVAL_MS = 5_000
const PING_TIMEOUT_MS = 5_000

// PostgreSQL 14+ may end idle sessions; a lock's session idles by design while it is held.
const KEEP_IDLE_SESSION = `SELECT set_config(name, '0', false) FROM pg_settings WHERE name = 'idle_session_timeout'`

/**
 * Runs `tryLock` (a `SELECT pg_try_advisory_lock(...) AS locked` taking `params`) on a new
 * connection, outside any pool since the lock lives as long as the session. Resolves
 * `undefined` when another session holds the lock, and throws what `pg` throws when the server
 * cannot be reached; either way no connection is left open. Once held, `onLost` hears of the
 * connection ending or failing (which releases the lock) until {@link SessionLock.release}.
 */
export async function trySessionLock(
  connectionString: string,
  tryLock: string,
  params: readonly unknown[],
  onLost: (reason: string) => void,
): Promise<SessionLock | undefined> {
  // TCP keepalive after 10 s of silence (the OS default waits two hours) and a ping every few
  // seconds make a connection that silently vanished end soon, so its loss is noticed; a
  // server that ended the session may have given the lock to another process by then.
  const client = new pg.Client({
    connectionString,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  })
  let held = false
  let lostEarly: string | undefined
  const lose = (reason: string) => {
    if (held) onLost(reason)
    else lostEarly ??= reason
  }
  // Without a listener an 'error' on an idle client would crash the process.
  client.on('error', (err) => lose(err.message))
  client.on('end', () => lose('its connection ended'))

  let locked = false
  try {
    await client.connect()
    await client.query(KEEP_IDLE_SESSION)
    const { rows } = await client.query<{ locked: boolean }>(tryLock, [...params])
    locked = rows[0]?.locked === true
  } finally {
    if (!locked) await client.end().catch(() => undefined)
  }
  if (!locked) return undefined
  held = true
  if (lostEarly !== undefined) onLost(lostEarly)
  const ping = setInterval(() => {
    const answered = client.query('SELECT 1')
    const silent = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error('it stopped answering')), PING_TIMEOUT_MS).unref()
    })
    Promise.race([answered, silent]).catch((err: Error) => {
      lose(`its connection failed (${err.message})`)
      void client.end().catch(() => undefined)
    })
  }, PING_INTERVAL_MS)
  ping.unref()

  let releasing: Promise<void> | undefined
  return {
    release() {
      held = false
      clearInterval(ping)
      releasing ??= client.end().catch(() => undefined)
      return releasing
    },
  }
}
