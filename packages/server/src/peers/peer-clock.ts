/** How many recent samples the estimate keeps. */
const SAMPLES = 8

/** How far the gap between two live beats may differ on the two clocks (jitter), beyond a round trip. */
const LIVE_MARGIN_MS = 500

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
   * `receivedAt` (ours). Only beats that came live are sampled (see {@link createPeerClock});
   * returns whether this one was.
   */
  heartbeat(constructTime: number, receivedAt: number): boolean
  /**
   * The event stream (re)opened; `resumed` when it replays from `Last-Event-ID`, so its first
   * beats may be old ones: the next beat is then only a reference for the one after it.
   */
  streamOpened(resumed: boolean): void
  reading(): ClockReading
}

/**
 * NTP's estimate with the stamps the spec gives: a heartbeat is built at the peer's
 * `construct_time` (t2) and received here at t3; with a round trip δ measured on a request,
 * the beat travelled about δ/2, so offset = t2 + δ/2 − t3. NTP keeps the sample with the
 * smallest delay, since queueing only ever adds to it: the round trip is the minimum of the
 * recent ones, and the offset the median of the recent beats, so one slow delivery does not
 * swing it.
 *
 * A beat replayed after a reconnect was built long before it arrived, which would read as a
 * peer clock far behind. So a beat is sampled only when it came live: it must be newer than
 * the last one sampled, and the time between it and the beat before it must be the same on
 * both clocks (within half a second plus a round trip); replayed beats arrive in a burst,
 * seconds apart on the peer's clock but not on ours. The first beat of a fresh (not resumed)
 * stream cannot be a replay and is sampled alone; any other first beat is only a reference.
 */
export function createPeerClock(): PeerClock {
  const trips: number[] = []
  const offsets: number[] = []
  /** The beat before (sampled or not), as the reference of the next one. */
  let previous: { built: number; received: number } | undefined
  // Until a fresh stream says otherwise, any beat may be a replay.
  let trustNext = false
  let lastSampled = Number.NEGATIVE_INFINITY
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
      if (!Number.isFinite(constructTime) || !Number.isFinite(receivedAt)) return false
      const before = previous
      const trusted = trustNext
      previous = { built: constructTime, received: receivedAt }
      trustNext = false
      if (constructTime <= lastSampled) return false
      if (!trusted) {
        if (before === undefined) return false
        const drift = constructTime - before.built - (receivedAt - before.received)
        if (Math.abs(drift) > LIVE_MARGIN_MS + (roundTripMs() ?? 0)) return false
      }
      lastSampled = constructTime
      push(offsets, constructTime + (roundTripMs() ?? 0) / 2 - receivedAt)
      return true
    },
    streamOpened(resumed) {
      trustNext = !resumed
      if (!resumed) previous = undefined
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
