import { EngineError } from '../errors'
import type { HeartbeatInfo } from './cluster'

// Names end up in SQL parameters and log lines; a bound keeps a bug from storing megabytes.
const MAX_NAME_LENGTH = 200

function checkName(what: string, value: unknown): void {
  if (typeof value !== 'string' || value === '' || value.length > MAX_NAME_LENGTH)
    throw new EngineError(
      'INVALID_INPUT',
      `${what} must be a non-empty string of at most ${MAX_NAME_LENGTH} characters, got ${JSON.stringify(value)}`,
    )
}

/**
 * Checks the arguments of `Leases.claim` (for drivers): `job` a non-empty string of at most
 * 200 characters, `slot` a safe integer, `ttlMs` a positive safe integer; `INVALID_INPUT`
 * otherwise.
 */
export function checkClaimInput(job: string, slot: number, ttlMs: number): void {
  checkName('a job name', job)
  if (!Number.isSafeInteger(slot))
    throw new EngineError('INVALID_INPUT', `a slot must be a safe integer, got ${String(slot)}`)
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1)
    throw new EngineError('INVALID_INPUT', `ttlMs must be a positive integer, got ${String(ttlMs)}`)
}

/**
 * Checks the arguments of `Leases.withLock` (for drivers): `name` a non-empty string of at
 * most 200 characters and `fn` a function; `INVALID_INPUT` otherwise.
 */
export function checkLockInput(name: string, fn: unknown): void {
  checkName('a lock name', name)
  if (typeof fn !== 'function')
    throw new EngineError('INVALID_INPUT', 'withLock needs a function to run')
}

/** Checks a node id (for drivers): a non-empty string of at most 200 characters. */
export function checkNodeId(nodeId: string): void {
  checkName('a node id', nodeId)
}

/**
 * Checks the argument of `Cluster.heartbeat` (for drivers): absent, or an object whose `url`
 * and `version` are absent or strings of at most 2,000 characters.
 */
export function checkHeartbeatInfo(info: HeartbeatInfo | undefined): void {
  if (info === undefined) return
  if (typeof info !== 'object' || info === null)
    throw new EngineError('INVALID_INPUT', 'heartbeat info must be an object')
  for (const field of ['url', 'version'] as const) {
    const value: unknown = info[field]
    if (value !== undefined && (typeof value !== 'string' || value.length > 2000))
      throw new EngineError(
        'INVALID_INPUT',
        `heartbeat ${field} must be a string of at most 2000 characters`,
      )
  }
}

/** Checks a staleness window (for drivers): a positive safe integer of milliseconds. */
export function checkStaleAfterMs(staleAfterMs: number): void {
  if (!Number.isSafeInteger(staleAfterMs) || staleAfterMs < 1)
    throw new EngineError(
      'INVALID_INPUT',
      `staleAfterMs must be a positive integer, got ${String(staleAfterMs)}`,
    )
}

/** The staleness window drivers use by default: 30 seconds without a heartbeat. */
export const DEFAULT_STALE_AFTER_MS = 30_000
