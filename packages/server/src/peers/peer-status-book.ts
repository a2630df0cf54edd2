import type { PeerStatus } from '@svcdb/contract'
import type { Database, SystemStore } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import { loadReadableCursor } from './readable-cursor'

/** What is known of one peer's replication; times are Unix milliseconds. */
export interface PeerRecord {
  state: 'pending' | 'ok' | 'failing'
  live: boolean
  lagEntries: number
  lastAttemptAt: number | null
  lastSuccessAt: number | null
  lastError: { code: string; message: string; at: number } | null
  forksCreated: number
  clockOffsetMs: number | null
  roundTripMs: number | null
  /** When this record was last changed: the newer of two copies wins. */
  updatedAt: number
}

/** The spec's stats `sync` section. */
export interface SyncSection {
  active_peers: number
  failing_peers: number
  last_sync_ms: number
  sync_lag_entries: Record<string, number>
}

/** Every peer's status: kept here, saved after each attempt, readable on every node. */
export interface PeerStatusBook {
  /** This node's copy of `name`'s record. */
  get(name: string): PeerRecord
  /** Changes this node's copy (events, clock readings). */
  update(name: string, patch: Partial<PeerRecord>): void
  /** Changes this node's copy and saves it, so other nodes of a cluster read it too. */
  save(name: string, patch: Partial<PeerRecord>): Promise<void>
  /** Every configured peer's status, the newest of this node's and the saved copy. */
  statuses(): Promise<PeerStatus[]>
  /** The stats `sync` section (`active_peers`: a success within the last three intervals). */
  syncSection(): Promise<SyncSection>
}

/** Where records are kept in the system namespace `peers` (`status/NAME`). */
const STATUS = 'status/'

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
  updatedAt: 0,
})

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
    Object.assign(mine(name), patch, { updatedAt: options.now() })
  }
  const newest = async (): Promise<Map<string, PeerRecord>> => {
    const saved = new Map(
      (await store.entries(STATUS)).map(([key, value]) => [key.slice(STATUS.length), value]),
    )
    const out = new Map<string, PeerRecord>()
    for (const [name, record] of records) {
      const raw = saved.get(name)
      const other = raw === undefined ? undefined : (JSON.parse(raw) as PeerRecord)
      out.set(name, other !== undefined && other.updatedAt > record.updatedAt ? other : record)
    }
    return out
  }
  return {
    get: mine,
    update,
    async save(name, patch) {
      update(name, patch)
      await store.batch([{ type: 'put', key: STATUS + name, value: JSON.stringify(mine(name)) }])
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
