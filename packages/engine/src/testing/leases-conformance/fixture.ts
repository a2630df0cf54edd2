import type { Leases, LockResult } from '../../cluster/leases'

/** Two nodes over one shared lease state, with the hooks the conformance suite needs. */
export interface LeasesFixture {
  /** One node. */
  readonly a: Leases
  /** Another node over the same state as `a`: claims and locks are exclusive across both. */
  readonly b: Leases
  /**
   * Takes every lock `node` holds away from it as the end of its process or connection would
   * (for PostgreSQL, terminating the backends that hold them), and resolves once other nodes
   * may take them.
   */
  loseLocks(node: Leases): Promise<void>
  /**
   * Closes both nodes (unless closed already) and frees what the fixture holds (schemas,
   * connections). The suite calls it after every test.
   */
  close(): Promise<void>
}

/** Makes a fresh fixture, with no claims and no locks, for one test. */
export type LeasesFixtureFactory = () => Promise<LeasesFixture>

/** What each part of the suite gets from the runner. */
export interface LeasesSuiteContext {
  /** A fresh fixture, closed after the test. */
  open(): Promise<LeasesFixture>
}

/** Resolves after `ms` milliseconds: for waiting out a lease, never for asserting a time. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** A promise with its resolver outside: a job that runs until the test lets it end. */
export function gate(): { readonly promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/** A job inside `withLock(name)` that holds the lock until the test lets it end. */
export interface HeldLock<T> {
  /** The job's signal: aborted when the lock is lost. */
  readonly signal: AbortSignal
  /** Lets the job end (it then returns its value). */
  finish(): void
  /** What `withLock` resolves with once the job ended. */
  readonly result: Promise<LockResult<T>>
}

/** Starts a job holding lock `name` on `leases`; resolves once the job is running. */
export async function holdLock<T>(leases: Leases, name: string, value: T): Promise<HeldLock<T>> {
  const job = gate()
  let running!: (signal: AbortSignal) => void
  let notRunning!: (err: unknown) => void
  const started = new Promise<AbortSignal>((resolve, reject) => {
    running = resolve
    notRunning = reject
  })
  const result = leases.withLock(name, async (signal) => {
    running(signal)
    await job.promise
    return value
  })
  // A lock not taken (or a failed call) must fail the test, not leave it waiting.
  result.then((r) => {
    if (!r.ran) notRunning(new Error(`the lock ${name} was not taken`))
  }, notRunning)
  return { signal: await started, finish: job.open, result }
}
