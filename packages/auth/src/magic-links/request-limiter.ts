/** Limits on magic-link requests, checked in memory before anything is stored. */
export interface MagicLinkLimits {
  /** Requests one client (remote address) may make per minute, in bursts up to it; default 20. */
  perClientPerMinute?: number
  /** Requests all clients together may make per minute; default 200. */
  globalPerMinute?: number
  /** Clients remembered at once, least recently seen dropped first; default 10,000. */
  maxClients?: number
}

/** The defaults of {@link MagicLinkLimits}. */
export const DEFAULT_MAGIC_LINK_LIMITS: Required<MagicLinkLimits> = {
  perClientPerMinute: 20,
  globalPerMinute: 200,
  maxClients: 10_000,
}

/** The outcome of {@link RequestLimiter.take}. */
export type LimitDecision =
  { allowed: true } | { allowed: false; scope: 'client' | 'global'; retryAfterMs: number }

/** Token buckets per client and for everyone, in bounded memory. */
export interface RequestLimiter {
  /** Spends one request of `client` and of the global budget, or neither when either is empty. */
  take(client: string): LimitDecision
  /** How many clients are remembered. */
  readonly clients: number
}

interface Bucket {
  tokens: number
  at: number
}

const MINUTE_MS = 60_000

/**
 * A {@link RequestLimiter}: each bucket holds up to its per-minute count and refills evenly
 * over a minute. `now` reads the clock.
 *
 * @throws {RangeError} when a limit is not a positive integer.
 */
export function createRequestLimiter(limits: MagicLinkLimits, now: () => number): RequestLimiter {
  const settings = { ...DEFAULT_MAGIC_LINK_LIMITS, ...limits }
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`magic-link limit ${name} must be a positive integer`)
    }
  }
  const { perClientPerMinute, globalPerMinute, maxClients } = settings
  // In least recently seen order: a client seen again moves to the end.
  const buckets = new Map<string, Bucket>()
  const global: Bucket = { tokens: globalPerMinute, at: now() }
  const refill = (bucket: Bucket, perMinute: number, at: number) => {
    bucket.tokens = Math.min(
      perMinute,
      bucket.tokens + (Math.max(0, at - bucket.at) * perMinute) / MINUTE_MS,
    )
    bucket.at = at
  }
  const wait = (bucket: Bucket, perMinute: number) =>
    Math.max(1, Math.ceil(((1 - bucket.tokens) * MINUTE_MS) / perMinute))
  return {
    take(client) {
      const at = now()
      const bucket = buckets.get(client) ?? { tokens: perClientPerMinute, at }
      buckets.delete(client)
      buckets.set(client, bucket)
      if (buckets.size > maxClients) buckets.delete(buckets.keys().next().value as string)
      refill(bucket, perClientPerMinute, at)
      refill(global, globalPerMinute, at)
      if (bucket.tokens < 1) {
        return { allowed: false, scope: 'client', retryAfterMs: wait(bucket, perClientPerMinute) }
      }
      if (global.tokens < 1) {
        return { allowed: false, scope: 'global', retryAfterMs: wait(global, globalPerMinute) }
      }
      bucket.tokens -= 1
      global.tokens -= 1
      return { allowed: true }
    },
    get clients() {
      return buckets.size
    },
  }
}
