import { createHash } from 'node:crypto'
import pg from 'pg'

/** First pause before reconnecting a dropped LISTEN connection, in ms (doubled up to 5 s). */
const FIRST_BACKOFF_MS = 100
const MAX_BACKOFF_MS = 5000

// PostgreSQL identifiers (channel names) hold at most 63 bytes.
const MAX_CHANNEL = 63

/**
 * The NOTIFY channel of a schema's commits: `svcdb_kv_<schema>`, or, for a schema too long to
 * fit, `svcdb_kv_` and a hash of it.
 */
export function commitChannel(schema: string): string {
  const plain = `svcdb_kv_${schema}`
  if (plain.length <= MAX_CHANNEL) return plain
  const digest = createHash('sha256').update(schema).digest('hex')
  return `svcdb_kv_${digest.slice(0, MAX_CHANNEL - 'svcdb_kv_'.length)}`
}

/** The `application_name` of a store's LISTEN connection (to find it in `pg_stat_activity`). */
export function watchApplicationName(schema: string): string {
  return `svcdb-watch:${schema}`.slice(0, MAX_CHANNEL)
}

/** Listeners of one schema's commits, over one LISTEN connection while there are any. */
export interface CommitWatch {
  /** Calls `listener` after each notified commit; returns the function that removes it. */
  add(listener: () => void): () => void
  /** Ends the connection; listeners are never called again. */
  close(): Promise<void>
}

/**
 * Follows a schema's commits with `LISTEN` on one dedicated `pg.Client` (outside the pool: a
 * pooled connection would lose its LISTEN), open while at least one listener exists. A
 * connection that drops is opened again after a pause (100 ms, doubling up to 5 s); since
 * notifications sent meanwhile are lost, listeners are called once it listens again.
 */
export function createCommitWatch(connectionString: string, schema: string): CommitWatch {
  const channel = commitChannel(schema)
  const listeners = new Set<() => void>()
  let client: pg.Client | undefined
  let connecting: Promise<void> | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  let backoff = FIRST_BACKOFF_MS
  let closed = false

  const notify = (): void => {
    for (const listener of [...listeners]) {
      try {
        listener()
      } catch (err) {
        queueMicrotask(() => {
          throw err
        })
      }
    }
  }

  const wanted = (): boolean => !closed && listeners.size > 0

  function scheduleConnect(): void {
    if (!wanted() || retry !== undefined || connecting !== undefined || client !== undefined) return
    retry = setTimeout(() => {
      retry = undefined
      connect()
    }, backoff)
    retry.unref()
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  }

  function connect(): void {
    if (!wanted() || connecting !== undefined || client !== undefined) return
    const next = new pg.Client({
      connectionString,
      application_name: watchApplicationName(schema),
      // A LISTEN connection only receives: without keepalive a dead one would go unnoticed.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    })
    let dropped = false
    const drop = (): void => {
      if (dropped) return
      dropped = true
      if (client === next) client = undefined
      void next.end().catch(() => undefined)
      scheduleConnect()
    }
    next.on('error', drop)
    next.on('end', drop)
    next.on('notification', (message) => {
      if (message.channel === channel) notify()
    })
    connecting = (async () => {
      try {
        await next.connect()
        await next.query(`LISTEN "${channel}"`)
        if (dropped) return
        if (!wanted()) {
          dropped = true
          await next.end().catch(() => undefined)
          return
        }
        client = next
        backoff = FIRST_BACKOFF_MS
        // Commits notified before this connection listened are lost (after a drop, and between
        // the first add() and the LISTEN): tell the listeners to look.
        notify()
      } catch {
        drop()
      } finally {
        connecting = undefined
        // A drop while connecting could not schedule the retry (it was still connecting).
        if (dropped) scheduleConnect()
      }
    })()
  }

  /** Ends the connection (one still connecting ends itself once it sees nobody listens). */
  async function disconnect(): Promise<void> {
    clearTimeout(retry)
    retry = undefined
    const current = client
    client = undefined
    if (current === undefined) return
    current.removeAllListeners('end')
    current.removeAllListeners('error')
    current.on('error', () => undefined)
    await current.end().catch(() => undefined)
  }

  return {
    add(listener) {
      // A function object per call: the same listener added twice is two listeners.
      const entry = (): void => listener()
      listeners.add(entry)
      connect()
      return () => {
        if (!listeners.delete(entry) || listeners.size > 0) return
        void disconnect()
      }
    },
    async close() {
      closed = true
      listeners.clear()
      await disconnect()
      await connecting
    },
  }
}
