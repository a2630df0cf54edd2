import { EngineError, isEngineError } from '@svcdb/engine'
import { sqlState } from './postgres-error'

/** The answer of a closed `Leases` or `Cluster` (`what`) to any call. */
export function clusterClosedError(what: string): EngineError {
  return new EngineError('CLOSED', `the PostgreSQL ${what} are closed`)
}

/**
 * Wraps a failure of `pg` as `IO_ERROR` naming what was being done (`lease claim of "gc"`);
 * an `EngineError` passes through.
 */
export function clusterError(action: string, err: unknown): EngineError {
  if (isEngineError(err)) return err
  const message = err instanceof Error ? err.message : String(err)
  const state = sqlState(err)
  return new EngineError(
    'IO_ERROR',
    `PostgreSQL ${action} failed: ${message}${state === undefined ? '' : ` (${state})`}`,
    { cause: err },
  )
}
