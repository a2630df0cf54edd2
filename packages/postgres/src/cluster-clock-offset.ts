import type { Pool } from 'pg'

/** One estimate of a node's clock offset against the database's. */
export interface ClockOffset {
  /** The database's clock minus the node's, in milliseconds. */
  readonly offsetMs: number
  /** The round trip it was measured over: the estimate is off by at most half of it. */
  readonly roundTripMs: number
}

const READ_CLOCK = `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`
// The round trip with the least queueing gives the tightest bound; three costs little.
const SAMPLES = 3

/**
 * Estimates the offset NTP-style: the database's `clock_timestamp()` is taken to be read at
 * the midpoint of the round trip, `offset = db − (sent + received) / 2`. Of a few samples,
 * the one with the shortest round trip wins.
 */
export async function measureClockOffset(pool: Pool): Promise<ClockOffset> {
  let best: ClockOffset | undefined
  for (let i = 0; i < SAMPLES; i += 1) {
    const sent = Date.now()
    const { rows } = await pool.query<{ ms: number }>(READ_CLOCK)
    const received = Date.now()
    const db = Number(rows[0]?.ms)
    const sample = { offsetMs: db - (sent + received) / 2, roundTripMs: received - sent }
    if (best === undefined || sample.roundTripMs < best.roundTripMs) best = sample
  }
  return best as ClockOffset
}
