import type { Leases } from '../cluster/leases'
import { EngineError } from '../errors'
import type { SharedState } from '../state/shared-state'
import type { GcOptions, GcResult, GcServices } from './collect-garbage'
import { collectSharedGarbage } from './shared-gc'

/** The name of the cluster lock a shared database's GC holds. */
export const GC_LOCK = 'gc'

/** How a shared database collects garbage: under which leases, with which grace period. */
export interface LeasedGcSettings {
  leases: Leases
  graceMs: number
}

/**
 * Runs {@link collectSharedGarbage} while holding the cluster lock {@link GC_LOCK}, so one
 * node collects at a time. Fails with `CONFLICT` without `settings` (a database opened without
 * leases) or when another node holds it (nothing is collected). When the lock is lost meanwhile (the node's connection to the lock's store
 * ended), the collection stops at its next safe point with `ABORTED`.
 */
export async function collectGarbageUnderLease(
  core: GcServices,
  shared: SharedState,
  settings: LeasedGcSettings | undefined,
  options: GcOptions = {},
): Promise<GcResult> {
  if (settings === undefined)
    throw new EngineError(
      'CONFLICT',
      'GC of a shared database runs under a cluster lease: open it with `leases` ' +
        '(createPostgresLeases from @svcdb/postgres); nothing was collected',
    )
  core.assertOpen()
  if (core.gc.running) throw new EngineError('CONFLICT', 'a garbage collection is already running')
  const outcome = await settings.leases.withLock(GC_LOCK, (lost) =>
    collectSharedGarbage(core, shared, settings.graceMs, {
      ...options,
      signal: options.signal === undefined ? lost : AbortSignal.any([options.signal, lost]),
    }),
  )
  if (!outcome.ran)
    throw new EngineError(
      'CONFLICT',
      'a garbage collection is already running on another node; nothing was collected',
    )
  return outcome.value
}
