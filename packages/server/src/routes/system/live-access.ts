import type { Access, Auth } from '@svcdb/auth'
import type { EventBus } from '@svcdb/events'
import { seesInventory } from '../../auth/inventory-access'
import type { Authenticator } from '../../routing/principal'

/** Tells every open stream that permissions changed somewhere. */
export interface PermissionWatch {
  /** Calls `listener` after each `permissions_changed`; returns the unsubscribe function. */
  listen(listener: () => void): () => void
  stop(): void
}

/** One bus subscription for the whole process, however many streams are open. */
export function createPermissionWatch(bus: EventBus): PermissionWatch {
  const listeners = new Set<() => void>()
  const subscription = bus.subscribe({ events: ['permissions_changed'] })
  void (async () => {
    for await (const _event of subscription) for (const listener of listeners) listener()
  })()
  return {
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    stop: () => subscription.close(),
  }
}

/** A stream's view of its caller's permissions, kept current while it is open. */
export interface LiveAccess {
  /** Synchronous, for the bus filter: the permissions as last resolved. */
  allows(path: string): boolean
  /** Synchronous, as `allows`: may the caller see snapshots, forks and metrics (`list` on `/`)? */
  seesInventory(): boolean
  stop(): void
}

/** Options of {@link watchAccess}. */
export interface WatchAccessOptions {
  auth: Auth
  authenticator: Authenticator
  /** The stream's request: its credential is checked again on every refresh. */
  request: Request
  watch: PermissionWatch
  /** Refresh period, for changes that emit no event (groups, keys, users, expiry). */
  intervalMs: number
  /** The credential no longer authenticates: the stream must end. */
  onRevoked(): void
}

/**
 * Resolves the caller's read access for an event stream and keeps it current: again on every
 * `permissions_changed` and every `intervalMs`, so a revoked share, key or user stops the
 * flow of events within one refresh, not when the client disconnects.
 */
export async function watchAccess(options: WatchAccessOptions): Promise<LiveAccess> {
  const resolve = async (): Promise<Access | undefined> => {
    const principal = await options.authenticator.authenticate(options.request)
    return principal === undefined ? undefined : options.auth.accessFor(principal)
  }
  let access = await resolve()
  let stopped = false
  let running: Promise<void> | undefined
  let again = false
  const refresh = () => {
    if (stopped) return
    if (running !== undefined) {
      again = true
      return
    }
    running = resolve()
      .then((next) => {
        if (stopped) return
        if (next === undefined) throw new Error('credential gone')
        access = next
      })
      .catch(() => {
        if (stopped) return
        access = undefined
        stop()
        options.onRevoked()
      })
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          refresh()
        }
      })
  }
  const unlisten = options.watch.listen(refresh)
  const timer = setInterval(refresh, options.intervalMs)
  timer.unref()
  const stop = () => {
    stopped = true
    unlisten()
    clearInterval(timer)
  }
  return {
    allows: (path) => access?.allows(path, 'read') ?? false,
    seesInventory: () => access !== undefined && seesInventory(access),
    stop,
  }
}
