/**
 * A claim on one slot of a job, won by {@link Leases.claim}: this node runs the job for that
 * slot, then calls {@link LeaseClaim.finish}.
 */
export interface LeaseClaim {
  /** The job claimed. */
  readonly job: string
  /** The slot claimed (the tick's scheduled time, in Unix milliseconds, for cron). */
  readonly slot: number
  /**
   * Marks the slot done, so no node ever takes it over. Resolves `true` when it did, `false`
   * when the claim had expired and another node took it over first (the job may then run
   * twice for this slot; the caller decides whether to log it). Calling it again gives the
   * first answer without another write.
   */
  finish(): Promise<boolean>
}

/** What {@link Leases.withLock} did: ran `fn` (with its value), or not, as the lock was held. */
export type LockResult<T> = { readonly ran: true; readonly value: T } | { readonly ran: false }

/**
 * Coordination of the jobs a cluster's nodes share. Cron claims each (job, slot) once across
 * all nodes (an advisory lock alone would let a node run a tick again after another finished
 * it); long jobs such as GC and peer sync hold a lock that dies with its holder, so runs never
 * overlap. Drivers: `createLocalLeases()` (one process), `createPostgresLeases()` from
 * `@svcdb/postgres` (every node sharing one database).
 *
 * Every call fails with `INVALID_INPUT` for a malformed argument and `CLOSED` once closed;
 * drivers over a network fail with `IO_ERROR` when it does.
 */
export interface Leases {
  /**
   * Claims `slot` of `job` for this node for `ttlMs` milliseconds. The first caller for a
   * (job, slot), on any node, gets a claim; the others get `undefined`. A claim not
   * finished when `ttlMs` has passed may be taken over by one later caller (its
   * holder is presumed dead); a finished one never is, for 7 days: claims whose lease ended
   * more than 7 days ago may be forgotten (drivers prune them now and then, so their storage
   * does not grow with every slot ever claimed), and a claim for such an old slot may then be
   * granted again. Use slots that never come back, such as a tick's time or a log position,
   * and do not claim slots older than that.
   *
   * @param job - a non-empty name, such as `gc` or `cron:nightly-export`
   * @param slot - a safe integer naming the run (for cron, the tick's scheduled time)
   * @param ttlMs - how long the claim stays the holder's without `finish()`, a positive integer
   * @example
   * const claim = await leases.claim('nightly', tick, 10 * 60_000)
   * if (claim) { await runNightly(); await claim.finish() }
   */
  claim(job: string, slot: number, ttlMs: number): Promise<LeaseClaim | undefined>
  /**
   * Runs `fn` while holding the lock `name`, exclusive across all nodes, or does nothing
   * when another holder (on this node or another) has it: it never waits. The lock is
   * released when `fn` settles (also when it throws, whose error `withLock` rethrows), and
   * dies with its holder: when the process or its connection ends, another node may take it.
   * `signal` aborts when the lock is lost while `fn` runs (connection gone, `close()`), since
   * exclusion no longer holds: a long job should stop at its next safe point.
   *
   * @example
   * const result = await leases.withLock('gc', (signal) => collectGarbage({ signal }))
   * if (!result.ran) console.log('gc is running on another node')
   */
  withLock<T>(name: string, fn: (signal: AbortSignal) => Promise<T>): Promise<LockResult<T>>
  /**
   * Releases every lock this object holds (aborting their `signal`s) and frees its
   * resources. Claims are left as they are: unfinished ones expire. Idempotent.
   */
  close(): Promise<void>
}
