import type { MetaStore } from '../meta/meta-store'

/** How often a shared database with listeners checks the commit token by default, in ms. */
export const DEFAULT_SHARED_POLL_MS = 250

/** The slowest poll while the store also says when writes happen (a fallback only), in ms. */
export const WATCHED_POLL_MS = 5000

// Longer delays overflow Node's timers (which then fire at once).
const MAX_TIMER_MS = 2 ** 31 - 1

/** Options of {@link watchSharedStore}. */
export interface SharedStoreWatchOptions {
  meta: MetaStore
  /** The poll period without `meta.watch`; with it, the poll runs at least 5 s apart. */
  pollMs: number
  /** Reads the token and reloads when another node committed (errors are ignored: the next try reads again). */
  refresh(): Promise<void>
}

/**
 * Makes a shared database notice other nodes' commits without reads: a refresh when the
 * store says a batch committed (`meta.watch`, when it has it), and on an unref'd timer (every
 * `pollMs`, or at most every 5 s as a fallback beside `watch`). Refreshes are single-flight:
 * one arriving meanwhile runs once after. Returns the function that stops it all.
 */
export function watchSharedStore(options: SharedStoreWatchOptions): () => void {
  const { meta } = options
  let running = false
  let again = false
  let stopped = false
  const trigger = (): void => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = true
    void options
      .refresh()
      .catch(() => undefined)
      .finally(() => {
        running = false
        if (again) {
          again = false
          trigger()
        }
      })
  }
  const unwatch = meta.watch?.(trigger)
  const period = unwatch === undefined ? options.pollMs : Math.max(options.pollMs, WATCHED_POLL_MS)
  const timer = setInterval(trigger, Math.min(period, MAX_TIMER_MS))
  timer.unref()
  return () => {
    stopped = true
    clearInterval(timer)
    unwatch?.()
  }
}
