import * as v from 'valibot'

const integer = v.pipe(v.number(), v.integer())

/**
 * One configured peer as `GET /system/peers` reports it: where it is, how the last sync
 * went, how far behind this deployment is, and the clock offset and round trip measured
 * from the peer's heartbeats (NTP-style). Times are Unix milliseconds.
 */
export const peerStatusSchema = v.object({
  /** The name given with `--peer NAME=URL`. */
  name: v.string(),
  /** The peer's base URL (never with credentials). */
  url: v.string(),
  /** The path scope (`NAME=URL#/projects`), or null for the whole database. */
  scope: v.nullable(v.string()),
  /** `ok` after a successful sync, `failing` after a failed attempt, `pending` before the first. */
  state: v.picklist(['pending', 'ok', 'failing']),
  /** Whether the peer's event stream is connected (pulls follow changes within a second). */
  live: v.boolean(),
  /** The peer's version (hex) this deployment last synced, or null before the first sync. */
  cursor: v.nullable(v.string()),
  /** Entries the peer changed that are not applied here yet, as far as known. */
  lag_entries: integer,
  last_attempt_at: v.nullable(integer),
  last_success_at: v.nullable(integer),
  /** The last failure, kept after later successes so its cause can be read. */
  last_error: v.nullable(v.object({ code: v.string(), message: v.string(), at: integer })),
  /** Forks `peer-NAME-<hash>` created because both sides changed. */
  forks_created: integer,
  /** Peer clock minus local clock, in milliseconds; null until a heartbeat was timed. */
  clock_offset_ms: v.nullable(v.number()),
  /** Round trip to the peer, in milliseconds; null until measured. */
  round_trip_ms: v.nullable(v.number()),
})

/** A peer's status (see `peerStatusSchema`). */
export type PeerStatus = v.InferOutput<typeof peerStatusSchema>

/** `GET /system/peers` (root). */
export const peersResponseSchema = v.object({ items: v.array(peerStatusSchema) })

/** The answer of `GET /system/peers`. */
export type PeersResponse = v.InferOutput<typeof peersResponseSchema>

/**
 * `DELETE /system/peers/{name}` (root): what this deployment kept of a peer that is no longer
 * configured, now dropped. Its pins (`peer/NAME`, and `peer/NAME.incoming` of a scoped pull)
 * no longer keep the peer's last version from GC.
 */
export const peerForgetResponseSchema = v.object({
  name: v.string(),
  /** What was dropped: `peer/NAME` pins, the read-only cursor, the staging fork, the status. */
  removed: v.array(v.string()),
})

/** The answer of `DELETE /system/peers/{name}`. */
export type PeerForgetResponse = v.InferOutput<typeof peerForgetResponseSchema>
