/** How failed webhook deliveries are retried. */
export interface RetryPolicy {
  /** Delay before the second attempt; default 1,000 ms. */
  readonly baseDelayMs: number
  /** Each further delay is this many times the previous one; default 2. */
  readonly factor: number
  /** Cap of a single delay; default 1 hour. */
  readonly maxDelayMs: number
  /** Attempts in all, the first included, before a delivery is given up; default 10. */
  readonly maxAttempts: number
}

/** The defaults: 1 s, 2 s, 4 s … capped at 1 hour, 10 attempts (about 8.5 minutes in all). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 1_000,
  factor: 2,
  maxDelayMs: 3_600_000,
  maxAttempts: 10,
}

/**
 * Completes a partial policy with the defaults, refusing nonsense with `RangeError`.
 */
export function resolveRetryPolicy(policy: Partial<RetryPolicy> = {}): RetryPolicy {
  const resolved = { ...DEFAULT_RETRY_POLICY, ...policy }
  if (!(resolved.baseDelayMs >= 0)) throw new RangeError('retry baseDelayMs must be ≥ 0')
  if (!(resolved.factor >= 1)) throw new RangeError('retry factor must be ≥ 1')
  if (!(resolved.maxDelayMs >= resolved.baseDelayMs))
    throw new RangeError('retry maxDelayMs must be ≥ baseDelayMs')
  if (!Number.isSafeInteger(resolved.maxAttempts) || resolved.maxAttempts < 1)
    throw new RangeError('retry maxAttempts must be a positive integer')
  return resolved
}

/**
 * Delay before the attempt after attempt number `attempts` (1 = the first failed):
 * `baseDelayMs × factor^(attempts − 1)`, capped at `maxDelayMs`.
 *
 * @example
 * retryDelay(DEFAULT_RETRY_POLICY, 3) // 4000
 */
export function retryDelay(policy: RetryPolicy, attempts: number): number {
  const delay = policy.baseDelayMs * policy.factor ** Math.max(0, attempts - 1)
  return Math.min(policy.maxDelayMs, Math.round(delay))
}
