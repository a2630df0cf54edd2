import { EngineError } from '../errors'
import type { Clock } from '../internal/clock'
import { checkClaimInput, checkLockInput } from './cluster-input'
import type { LeaseClaim, Leases, LockResult } from './leases'

/** Options of {@link createLocalLeases}. */
export interface LocalLeasesOptions {
  /** The clock claims expire by (default `Date.now`). */
  clock?: Clock
}

interface ClaimRow {
  /** Which claim holds the slot now: a takeover replaces it. */
  holder: object
  until: number
  done: boolean
}

/**
 * The state local nodes share: the claims and the held locks of one process. Internal: the
 * conformance tests hand two nodes over one table.
 */
export interface LocalLeaseTable {
  readonly claims: Map<string, ClaimRow>
  readonly locks: Set<string>
}

/** A fresh, empty {@link LocalLeaseTable}. */
export function createLocalLeaseTable(): LocalLeaseTable {
  return { claims: new Map(), locks: new Set() }
}

/**
 * {@link Leases} for one process (the embedded server): claims live in memory, so each
 * (job, slot) is claimed once in this process; `withLock` is an in-process mutex that never
 * waits. Claims expire by `clock`, as in a cluster, so a job whose run threw without
 * `finish()` can be claimed again after its `ttlMs`. At most once an hour a claim forgets
 * the claims whose lease ended over 7 days ago.
 *
 * @example
 * const leases = createLocalLeases()
 * const claim = await leases.claim('nightly', tick, 60_000)
 */
export function createLocalLeases(options: LocalLeasesOptions = {}): Leases {
  return localLeases(createLocalLeaseTable(), options.clock ?? { now: () => Date.now() })
}

/** Claims whose lease ended this long ago are forgotten (see `Leases.claim`). */
const CLAIM_RETENTION_MS = 7 * 24 * 60 * 60_000
/** How often one node prunes forgotten claims, piggybacked on a claim. */
const PRUNE_INTERVAL_MS = 60 * 60_000

/** A node over `table`: its own locks and lifecycle, the table's claims. */
export function localLeases(table: LocalLeaseTable, clock: Clock): Leases {
  // The locks this node holds, with the controllers of the signals their holders got.
  const held = new Map<string, AbortController>()
  let closed = false
  let lastPrune = -Infinity

  /** Forgets claims whose lease ended over {@link CLAIM_RETENTION_MS} ago, hourly at most. */
  const prune = (now: number): void => {
    if (now - lastPrune < PRUNE_INTERVAL_MS) return
    lastPrune = now
    for (const [key, row] of table.claims) {
      if (row.until < now - CLAIM_RETENTION_MS) table.claims.delete(key)
    }
  }

  const assertOpen = (): void => {
    if (closed) throw new EngineError('CLOSED', 'the leases are closed')
  }

  return {
    claim(job, slot, ttlMs) {
      try {
        assertOpen()
        checkClaimInput(job, slot, ttlMs)
      } catch (err) {
        return Promise.reject(err)
      }
      // `\u0000` cannot end a job name ambiguously: slots are integers.
      const key = `${job}\u0000${slot}`
      const now = clock.now()
      prune(now)
      const row = table.claims.get(key)
      if (row !== undefined && (row.done || row.until >= now)) return Promise.resolve(undefined)
      const holder = {}
      table.claims.set(key, { holder, until: now + ttlMs, done: false })
      let finished: Promise<boolean> | undefined
      const claim: LeaseClaim = {
        job,
        slot,
        finish() {
          finished ??= (async () => {
            const current = table.claims.get(key)
            if (current?.holder !== holder) return false
            current.done = true
            return true
          })()
          return finished
        },
      }
      return Promise.resolve(claim)
    },

    async withLock<T>(
      name: string,
      fn: (signal: AbortSignal) => Promise<T>,
    ): Promise<LockResult<T>> {
      assertOpen()
      checkLockInput(name, fn)
      if (table.locks.has(name)) return { ran: false }
      table.locks.add(name)
      const controller = new AbortController()
      held.set(name, controller)
      try {
        return { ran: true, value: await fn(controller.signal) }
      } finally {
        // After close() the lock went with it, and may belong to another node by now.
        if (held.get(name) === controller) {
          held.delete(name)
          table.locks.delete(name)
        }
      }
    },

    close() {
      if (closed) return Promise.resolve()
      closed = true
      for (const [name, controller] of held) {
        table.locks.delete(name)
        controller.abort(new EngineError('CLOSED', `the lock "${name}" was released by close()`))
      }
      held.clear()
      return Promise.resolve()
    },
  }
}
