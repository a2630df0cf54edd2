import type { PeerStatus } from '@svcdb/contract'
import type { Database, SystemStore } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import { loadReadableCursor } from './readable-cursor'

/** What is known of one peer's replication; times are Unix milliseconds. */
export interface PeerRecord {
  state: 'pending' | 'ok' | 'failing'
  live: boolean
  /**
   * Entries the peer changed that are not applied here, as far as known: measured when a
   * round finds the peer ahead (the entries between the cursor and the peer's version, up
   * to 10,000), plus the entries of change events that arrived since (replayed ones after a
   * reconnect included). A successful round leaves only what arrived while it ran. Saved, so
   * the last known value outlives a restart; 0 when nothing is known to be missing.
   */
  lagEntries: number
  lastAttemptAt: number | null
  lastSuccessAt: number | null
  lastError: { code: string; message: string; at: number } | null
  forksCreated: number
  clockOffsetMs: number | null
  roundTripMs: number | null
  /**
   * How many times this record was saved, by any node: of two copies the higher count wins.
   * A counter, not a time, since the nodes' clocks need not agree.
   */
  saves: number
}

/** The spec's stats `sync` section. */
export interface SyncSection {
  active_peers: number
  failing_peers: number
  last_sync_ms: number
  sync_lag_entries: Record<string, number>
}

/**
 * Every peer's status: kept here, saved after each attempt, readable on every node, and
 * loaded again at start, so a restart or a failover to another node keeps it.
 */
export interface PeerStatusBook {
  /**
   * Loads the saved records into this node's copies (once; later calls share the first).
   * Call before the first {@link PeerStatusBook.update}; reads wait for it themselves.
   */
  ready(): Promise<void>
  /**
   * Takes the saved copy of `name`'s record when it was saved more often than this node's
   * (another node synced the peer meanwhile): called when this node starts syncing it.
   */
  refresh(name: string): Promise<void>
  /** This node's copy of `name`'s record. */
  get(name: string): PeerRecord
  /** Changes this node's copy (events, clock readings). */
  update(name: string, patch: Partial<PeerRecord>): void
  /**
   * Changes this node's copy and saves it with its save count raised past both copies', so
   * other nodes of a cluster read it too, and it is loaded again at start.
   */
  save(name: string, patch: Partial<PeerRecord>): Promise<void>
  /** Deletes the saved records of peers that are not configured here; returns their names. */
  forgetUnconfigured(): Promise<string[]>
  /** Every configured peer's status, the newest of this node's and the saved copy. */
  statuses(): Promise<PeerStatus[]>
  /** The stats `sync` section (`active_peers`: a success within the last three intervals). */
  syncSection(): Promise<SyncSection>
}

/** Where records are kept in the system namespace `peers` (`status/NAME`). */
const STATUS = 'status/'

/** The system-store key (namespace `peers`) of `peer`'s saved status. */
export const peerStatusKey = (peer: string): string => STATUS + peer

const blank = (): PeerRecord => ({
  state: 'pending',
  live: false,
  lagEntries: 0,
  lastAttemptAt: null,
  lastSuccessAt: null,
  lastError: null,
  forksCreated: 0,
  clockOffsetMs: null,
  roundTripMs: null,
  saves: 0,
})

/** A saved record, or undefined when it is not one (written by other code). */
function parseRecord(raw: string | undefined): PeerRecord | undefined {
  if (raw === undefined) return undefined
  try {
    const parsed = JSON.parse(raw) as Partial<PeerRecord>
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.state !== 'string')
      return undefined
    // Records saved before the count existed count as never saved.
    return { ...blank(), ...parsed, saves: typeof parsed.saves === 'number' ? parsed.saves : 0 }
  } catch {
    return undefined
  }
}

/**
 * The status book of `peers`, saved in the system namespace `peers` (one JSON record per
 * peer, under `status/NAME`). In a cluster one node syncs a peer at a time, so the others answer from what it
 * saved; only the names configured here are reported.
 */
export function createPeerStatusBook(options: {
  db: Database
  peers: readonly PeerConfig[]
  intervalMs: number
  now: () => number
}): PeerStatusBook {
  const store: SystemStore = options.db.systemStore('peers')
  const records = new Map(options.peers.map((p) => [p.name, blank()]))
  const mine = (name: string): PeerRecord => {
    const record = records.get(name)
    if (record === undefined) throw new RangeError(`no peer named ${name}`)
    return record
  }
  const update = (name: string, patch: Partial<PeerRecord>) => {
    const { saves: _ignored, ...rest } = patch
    Object.assign(mine(name), rest)
  }
  const saved = async (): Promise<Map<string, PeerRecord>> => {
    const out = new Map<string, PeerRecord>()
    for (const [key, value] of await store.entries(STATUS)) {
      const record = parseRecord(value)
      if (record !== undefined) out.set(key.slice(STATUS.length), record)
    }
    return out
  }
  /** Replaces this node's copy by the saved one when that was saved more often. */
  const adopt = (name: string, other: PeerRecord | undefined) => {
    const record = mine(name)
    if (other !== undefined && other.saves > record.saves) Object.assign(record, other)
  }
  let loaded: Promise<void> | undefined
  const ready = () => {
    loaded ??= saved().then((all) => {
      for (const name of records.keys()) adopt(name, all.get(name))
    })
    return loaded
  }
  const newest = async (): Promise<Map<string, PeerRecord>> => {
    await ready()
    const all = await saved()
    const out = new Map<string, PeerRecord>()
    for (const [name, record] of records) {
      const other = all.get(name)
      out.set(name, other !== undefined && other.saves > record.saves ? other : record)
    }
    return out
  }
  return {
    ready,
    async refresh(name) {
      await ready()
      adopt(name, parseRecord(await store.get(STATUS + name)))
    },
    get: mine,
    update,
    async save(name, patch) {
      await ready()
      const stored = parseRecord(await store.get(STATUS + name))
      adopt(name, stored)
      update(name, patch)
      const record = mine(name)
      record.saves = Math.max(record.saves, stored?.saves ?? 0) + 1
      await store.batch([{ type: 'put', key: STATUS + name, value: JSON.stringify(record) }])
    },
    async forgetUnconfigured() {
      const gone = (await store.entries(STATUS))
        .map(([key]) => key.slice(STATUS.length))
        .filter((name) => !records.has(name))
      if (gone.length > 0)
        await store.batch(gone.map((name) => ({ type: 'del', key: STATUS + name })))
      return gone
    },
    async statuses() {
      const cursors = new Map((await options.db.peerPins.list()).map((p) => [p.name, p.version]))
      // A peer pulled through a key that may only read keeps its cursor in its own record.
      const cursorOf = async (name: string) =>
        cursors.get(name) ?? (await loadReadableCursor(options.db, name))?.version ?? null
      const current = await newest()
      return Promise.all(
        options.peers.map(async (peer) => {
          const r = current.get(peer.name) ?? blank()
          return {
            name: peer.name,
            url: peer.url,
            scope: peer.scope ?? null,
            state: r.state,
            live: r.live,
            cursor: await cursorOf(peer.name),
            lag_entries: r.lagEntries,
            last_attempt_at: r.lastAttemptAt,
            last_success_at: r.lastSuccessAt,
            last_error: r.lastError,
            forks_created: r.forksCreated,
            clock_offset_ms: r.clockOffsetMs,
            round_trip_ms: r.roundTripMs,
          }
        }),
      )
    },
    async syncSection() {
      const now = options.now()
      const section: SyncSection = {
        active_peers: 0,
        failing_peers: 0,
        last_sync_ms: 0,
        sync_lag_entries: {},
      }
      for (const [name, r] of await newest()) {
        if (r.lastSuccessAt !== null && now - r.lastSuccessAt <= 3 * options.intervalMs)
          section.active_peers++
        if (r.state === 'failing') section.failing_peers++
        section.last_sync_ms = Math.max(section.last_sync_ms, r.lastSuccessAt ?? 0)
        section.sync_lag_entries[name] = r.lagEntries
      }
      return section
    },
  }
}
