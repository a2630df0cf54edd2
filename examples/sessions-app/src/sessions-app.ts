import type { Client } from '@svcdb/client'
import { createChannelHub } from '@svcdb/events'
import { collectionLayout } from './collection-layout'
import { watchCollection } from './collection-watcher'
import { createDispatcher } from './dispatcher'
import type { DispatchFn } from './dispatcher'
import { SessionsAppError } from './errors'
import { createHttpApp } from './http-app'
import { listenNode } from './node-listener'
import type { ListenOptions, NodeListener } from './node-listener'
import { createSessionFeed } from './session-feed'
import { createSessionStore } from './session-store'

/** Options of {@link createSessionsApp}. */
export interface SessionsAppOptions {
  /**
   * The svcdb client sessions are stored through. Its key needs create, read and list on the
   * collection (`cr--l---` on `/sessions/**` is enough: the app never updates or deletes).
   */
  client: Client
  /** Runs a session; see {@link DispatchFn}. Default: succeeds at once and returns nothing. */
  dispatch?: DispatchFn
  /** The collection's svcdb directory; default `/sessions`. */
  collection?: string
  /** Unix milliseconds, for `created_at` and `dispatched_at`; `Date.now` by default. */
  now?: () => number
  /** How often the collection is listed to retry failed dispatches; default 60,000 ms, 0 = never. */
  sweepIntervalMs?: number
  /** Interval of the SSE `: ping` keepalive; default 30,000 ms. */
  pingIntervalMs?: number
  /** Session events kept for `Last-Event-ID` resume; default 1,000. */
  replaySize?: number
  /** Largest JSON request body; default 64 KiB. */
  maxBodyBytes?: number
  /**
   * Failures nobody else hears of: failed dispatches, svcdb errors of the background loops,
   * 5xx answers. Default: one line on stderr each.
   */
  onError?: (err: unknown) => void
}

/** A running sessions app: an HTTP handler plus its dispatcher. */
export interface SessionsApp {
  /** The HTTP handler, for any fetch-based server; {@link SessionsApp.listen} serves it on Node. */
  readonly fetch: (request: Request) => Response | Promise<Response>
  /**
   * Resolves once the app follows svcdb's event stream and has listed the collection (so
   * sessions created from then on reach the session stream). Rejects when svcdb refuses the
   * stream for good, a bad API key say, or when the app closes first.
   */
  readonly ready: Promise<void>
  /** Serves the app on Node's HTTP server; resolves with where. */
  listen(options?: ListenOptions): Promise<{ url: string; port: number }>
  /**
   * Stops the dispatcher (the dispatch in flight is aborted), ends the SSE streams, and stops
   * the server if it listens (open requests get `graceMs`, default 5,000 ms).
   */
  close(options?: { graceMs?: number }): Promise<void>
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000
const DEFAULT_PING_INTERVAL_MS = 30_000
const DEFAULT_MAX_BODY_BYTES = 64 * 1024

const logError = (err: unknown) => {
  const code = (err as { code?: unknown }).code
  console.error(`sessions-app: ${typeof code === 'string' ? `${code} ` : ''}${String(err)}`)
}

/**
 * Creates the sessions app and starts its dispatcher: sessions are stored in svcdb as a flat,
 * append-only collection; svcdb's event stream drives the session stream and the dispatcher,
 * so several instances on one collection see and dispatch each other's sessions.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:6830', apiKey: process.env.SVCDB_API_KEY })
 * const app = createSessionsApp({ client, dispatch: async (session) => startWorker(session) })
 * const { url } = await app.listen({ port: 6840 })
 * await app.ready
 */
export function createSessionsApp(options: SessionsAppOptions): SessionsApp {
  const now = options.now ?? Date.now
  const onError = options.onError ?? logError
  const layout = collectionLayout(options.collection ?? '/sessions')
  const store = createSessionStore(options.client, layout)
  const feed = createSessionFeed(
    options.replaySize === undefined ? {} : { replaySize: options.replaySize },
  )
  const channels = createChannelHub<unknown>()
  const shutdown = new AbortController()
  const dispatcher = createDispatcher({
    store,
    dispatch: options.dispatch ?? (() => undefined),
    now,
    onError,
    sweepIntervalMs: options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
  })

  let resolveReady!: () => void
  let rejectReady!: (err: unknown) => void
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve
    rejectReady = reject
  })
  // Callers may never look at `ready`; its rejection must not crash the process.
  ready.catch(() => undefined)

  const watching = watchCollection({
    client: options.client,
    layout,
    signal: shutdown.signal,
    onSession(id) {
      feed.publish({ kind: 'created', sessionID: id })
      dispatcher.enqueue(id)
    },
    onDispatched(id) {
      dispatcher.settled(id)
      feed.publish({ kind: 'dispatched', sessionID: id })
    },
    onResync: () => void dispatcher.scan().then(resolveReady),
  }).catch((err: unknown) => {
    onError(err)
    rejectReady(err)
  })

  const http = createHttpApp({
    store,
    feed,
    channels,
    now,
    shutdown: shutdown.signal,
    pingIntervalMs: options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    onError,
  })

  let listener: NodeListener | undefined
  let closing: Promise<void> | undefined
  const fetch = (request: Request) => http.fetch(request)

  return {
    fetch,
    ready,
    async listen(listenOptions) {
      if (closing !== undefined) throw new SessionsAppError('CLOSED', 'the app is closed')
      if (listener !== undefined) throw new Error('the app is listening already')
      listener = await listenNode(fetch, listenOptions)
      return { url: listener.url, port: listener.port }
    },
    close({ graceMs = 5_000 } = {}) {
      closing ??= (async () => {
        rejectReady(new SessionsAppError('CLOSED', 'the app closed before it was ready'))
        // Ends the SSE streams and the svcdb subscription, and aborts the dispatch in flight.
        shutdown.abort()
        await Promise.all([dispatcher.close(), watching])
        await listener?.close(graceMs)
        feed.close()
        channels.close()
      })()
      return closing
    },
  }
}
