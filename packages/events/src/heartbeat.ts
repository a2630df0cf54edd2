import type { Clock } from './clock'
import type { EventBus } from './event-bus'
import { startPulse } from './pulse'
import type { Pulse } from './pulse'

/** Options of {@link startHeartbeat}. */
export interface HeartbeatOptions {
  bus: EventBus
  /** Default 15,000 ms (spec). */
  intervalMs?: number
  /** The bus's clock by default. */
  clock?: Clock
}

const DEFAULT_INTERVAL_MS = 15_000

/**
 * Publishes a `heartbeat` every `intervalMs`: `{intent_time, construct_time, node_id}`, where
 * `intent_time` is when the beat was scheduled and `construct_time` when it was built, so peers
 * can measure clock offset and scheduling delay. It carries no statistics. Stops by itself when
 * the bus closes.
 *
 * @example
 * const heartbeat = startHeartbeat({ bus })
 * // on shutdown
 * heartbeat.stop()
 */
export function startHeartbeat(options: HeartbeatOptions): Pulse {
  const { bus } = options
  const clock = options.clock ?? bus.clock
  const pulse: Pulse = startPulse(clock, options.intervalMs ?? DEFAULT_INTERVAL_MS, (intent) => {
    if (bus.closed) {
      pulse.stop()
      return
    }
    bus.publish('heartbeat', {
      intent_time: Math.round(intent),
      construct_time: Math.round(clock.now()),
      node_id: bus.nodeId,
    })
  })
  return pulse
}
