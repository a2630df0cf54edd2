import { SessionsAppError } from './errors'
import type { Session } from './session'
import type { SessionStore } from './session-store'

/** What a dispatch function is given besides the session. */
export interface DispatchContext {
  /** Aborted when the app closes; a long dispatch should stop and throw. */
  signal: AbortSignal
}

/**
 * Hands a session to whatever runs it (a worker pool, a queue, a webhook). Resolving marks the
 * session dispatched and stores the resolved value (JSON) as the record's `result`; throwing
 * leaves it undispatched, to be retried by the next sweep. It may run more than once for one
 * session when several app instances race, so it should be idempotent: the dispatch record
 * itself is written exactly once.
 */
export type DispatchFn = (session: Session, context: DispatchContext) => unknown

/** Options of {@link createDispatcher}. */
export interface DispatcherOptions {
  store: SessionStore
  dispatch: DispatchFn
  /** Unix milliseconds, for `dispatched_at`. */
  now(): number
  /** Failures the dispatcher recovers from by retrying later: dispatch or svcdb errors. */
  onError(err: unknown): void
  /** Lists the collection this often to pick up what failed or was missed; 0 turns it off. */
  sweepIntervalMs: number
}

/** The loop that dispatches created sessions, one at a time, in the order they arrive. */
export interface Dispatcher {
  /** Queues a session (once, however often it is queued) for dispatch. */
  enqueue(id: string): void
  /** Someone else dispatched `id`: forget it. */
  settled(id: string): void
  /** Lists the collection and queues every session without a dispatch record. */
  scan(): Promise<void>
  /** Sessions queued and not yet taken. */
  readonly pending: number
  /** Stops: aborts the dispatch in flight and waits for it to end. */
  close(): Promise<void>
}

/**
 * Creates the dispatcher. Each session is checked for a dispatch record right before it is
 * dispatched (a listing or an event may be stale), dispatched, then marked with a create-only
 * write, so a session is marked once however many instances race for it.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { store } = options
  // A Set is an insertion-ordered queue that ignores duplicates.
  const queue = new Set<string>()
  const stop = new AbortController()
  let closed = false
  let working: Promise<void> | undefined
  let scanning: Promise<void> | undefined
  let scanAgain = false

  const dispatchOne = async (id: string) => {
    const { signal } = stop
    if ((await store.readDispatch(id, { signal })) !== undefined) return
    // Gone (a restored snapshot, say): nothing to dispatch.
    const session = await store.read(id, { signal })
    if (session === undefined) return
    let result: unknown
    try {
      result = await options.dispatch(session, { signal })
    } catch (cause) {
      throw new SessionsAppError(
        'DISPATCH_FAILED',
        `dispatching session '${id}' failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      )
    }
    // Not under `signal`: a dispatch that succeeded is recorded even while closing, or it
    // would run again on the next start.
    await store.markDispatched({
      session_id: id,
      dispatched_at: options.now(),
      result: result ?? null,
    })
  }

  const work = async () => {
    while (!closed) {
      const id = queue.values().next().value
      if (id === undefined) return
      queue.delete(id)
      try {
        await dispatchOne(id)
      } catch (err) {
        if (!closed) options.onError(err)
      }
    }
  }

  const kick = () => {
    if (working !== undefined || closed) return
    working = work().finally(() => {
      working = undefined
      // Something may have been queued between the loop's last look and now.
      if (queue.size > 0) kick()
    })
  }

  const scanOnce = async () => {
    try {
      for (const id of await store.listPending({ signal: stop.signal })) dispatcher.enqueue(id)
    } catch (err) {
      if (!closed) options.onError(err)
    }
  }

  const timer =
    options.sweepIntervalMs > 0
      ? setInterval(() => void dispatcher.scan(), options.sweepIntervalMs)
      : undefined
  timer?.unref()

  const dispatcher: Dispatcher = {
    enqueue(id) {
      if (closed) return
      queue.add(id)
      kick()
    },
    settled(id) {
      queue.delete(id)
    },
    scan() {
      if (closed) return Promise.resolve()
      // One listing at a time; a request during one runs another right after it.
      if (scanning !== undefined) {
        scanAgain = true
        return scanning
      }
      scanning = (async () => {
        do {
          scanAgain = false
          await scanOnce()
        } while (scanAgain && !closed)
      })().finally(() => (scanning = undefined))
      return scanning
    },
    get pending() {
      return queue.size
    },
    async close() {
      closed = true
      clearInterval(timer)
      stop.abort()
      await Promise.all([working, scanning])
    },
  }
  return dispatcher
}
