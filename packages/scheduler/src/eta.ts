/**
 * Estimates when a running task completes, as an absolute Unix-ms time (the spec's
 * `eta_ms`), by extrapolating its average rate since it started: at `progress` p after
 * `elapsed` ms, the rest takes `elapsed * (1 - p) / p`. `undefined` while nothing is known
 * yet (no progress, or a clock that reads earlier than the start).
 *
 * @example
 * estimateEta(1_000, 0.25, 2_000) // 5_000: a quarter took 1 s, three quarters take 3 s more
 */
export function estimateEta(startedAt: number, progress: number, now: number): number | undefined {
  const elapsed = now - startedAt
  if (!(progress > 0) || !(progress <= 1) || !(elapsed >= 0)) return undefined
  const eta = Math.round(now + (elapsed * (1 - progress)) / progress)
  return Number.isSafeInteger(eta) ? eta : undefined
}
