import type { Clock } from './clock'
import { EventsError } from './errors'
import type { EventBus } from './event-bus'
import { toMetricsPayload } from './metrics-payload'
import type { MetricsPayload } from './metrics-payload'
import { startPulse } from './pulse'
import type { Pulse } from './pulse'

/** Options of {@link startMetricsPulse}. */
export interface MetricsPulseOptions {
  bus: EventBus
  /** The stats provider; a whole stats snapshot may be returned (see {@link toMetricsPayload}). */
  stats: () => MetricsPayload | Promise<MetricsPayload>
  /** Default 15,000 ms (spec), independent of the heartbeat. */
  intervalMs?: number
  /** The bus's clock by default. */
  clock?: Clock
  /** Told when the provider fails (`METRICS_UNAVAILABLE`); that tick publishes nothing. */
  onError?: (err: EventsError) => void
}

const DEFAULT_INTERVAL_MS = 15_000

/**
 * Publishes a `metrics` event every `intervalMs` with the stats sections `counts`, `sizes`,
 * `throughput` and `health` (without `gc_last_reclaimed_bytes`; no latency). A failing provider
 * costs one tick, never the process; a provider still busy from the previous tick makes the
 * next one skip. Stops by itself when the bus closes.
 *
 * @example
 * const metrics = startMetricsPulse({ bus, stats: () => engine.stats(), intervalMs: 15_000 })
 */
export function startMetricsPulse(options: MetricsPulseOptions): Pulse {
  const { bus, stats, onError } = options
  let busy = false
  const report = (cause: unknown) => {
    const message = cause instanceof Error ? cause.message : String(cause)
    onError?.(
      new EventsError('METRICS_UNAVAILABLE', `stats for the metrics event failed: ${message}`, {
        cause,
      }),
    )
  }
  const pulse: Pulse = startPulse(
    options.clock ?? bus.clock,
    options.intervalMs ?? DEFAULT_INTERVAL_MS,
    () => {
      if (bus.closed) {
        pulse.stop()
        return
      }
      if (busy) return
      busy = true
      void (async () => {
        try {
          const payload = toMetricsPayload(await stats())
          if (pulse.running && !bus.closed) bus.publish('metrics', payload)
        } catch (err) {
          report(err)
        } finally {
          busy = false
        }
      })()
    },
  )
  return pulse
}
