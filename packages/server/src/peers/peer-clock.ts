/** How many recent samples the estimate keeps. */
const SAMPLES = 8

/** A peer's clock offset and round trip, as far as measured. */
export interface ClockReading {
  /** Peer clock minus local clock, in milliseconds; null until a heartbeat was timed. */
  offsetMs: number | null
  /** Round trip to the peer, in milliseconds; null until measured. */
  roundTripMs: number | null
}

/** Clock offset and round-trip estimate of one peer. */
export interface PeerClock {
  /** Records a round trip (a request's send to its answer, local clock). */
  roundTrip(ms: number): void
  /**
   * Records a heartbeat: the peer built it at `constructTime` (its clock) and it arrived at
   * `receivedAt` (ours).
   */
  heartbeat(constructTime: number, receivedAt: number): void
  reading(): ClockReading
}

/**
 * NTP's estimate with the stamps the spec gives: a heartbeat is built at the peer's
 * `construct_time` (t2) and received here at t3; with a round trip δ measured on a request,
 * the beat travelled about δ/2, so offset = t2 + δ/2 − t3. NTP keeps the sample with the
 * smallest delay, since queueing only ever adds to it: the round trip is the minimum of the
 * recent ones, and the offset the median of the recent beats, so one slow delivery does not
 * swing it.
 */
export function createPeerClock(): PeerClock {
  const trips: number[] = []
  const offsets: number[] = []
  const push = (list: number[], value: number) => {
    list.push(value)
    if (list.length > SAMPLES) list.shift()
  }
  const roundTripMs = () => (trips.length === 0 ? null : Math.min(...trips))
  return {
    roundTrip(ms) {
      if (Number.isFinite(ms) && ms >= 0) push(trips, ms)
    },
    heartbeat(constructTime, receivedAt) {
      if (!Number.isFinite(constructTime)) return
      push(offsets, constructTime + (roundTripMs() ?? 0) / 2 - receivedAt)
    },
    reading() {
      const rtt = roundTripMs()
      return {
        offsetMs: offsets.length === 0 ? null : round(median(offsets)),
        roundTripMs: rtt === null ? null : round(rtt),
      }
    },
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10
}
