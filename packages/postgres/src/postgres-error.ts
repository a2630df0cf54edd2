import { EngineError, isEngineError } from '@svcdb/engine'

/** The SQLSTATE of a PostgreSQL error (`40P01`...), if `err` is one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** The metadata store's answer to any call once it is closed. */
export function closedError(cause?: unknown): EngineError {
  return new EngineError(
    'CLOSED',
    'the PostgreSQL metadata store is closed',
    cause === undefined ? {} : { cause },
  )
}

/** The answer of a closed `Leases` or `Cluster` (`what`) to any call. */
export function clusterClosedError(what: string): EngineError {
  return new EngineError('CLOSED', `the PostgreSQL ${what} are closed`)
}

/**
 * Wraps a failure of `pg` (a refused connection, a failed query) as `IO_ERROR` naming what
 * was being done (`metadata read`, `lease claim of "gc"`); an `EngineError` passes through.
 */
export function postgresError(action: string, err: unknown): EngineError {
  if (isEngineError(err)) return err
  const message = err instanceof Error ? err.message : String(err)
  const state = sqlState(err)
  return new EngineError(
    'IO_ERROR',
    `PostgreSQL ${action} failed: ${message}${state === undefined ? '' : ` (${state})`}`,
    { cause: err },
  )
}
