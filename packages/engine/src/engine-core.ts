import type { ChunkStore } from './chunks/chunk-store'
import { ReadBufferPool } from './read/read-buffer-pool'
import { ChangeFeed } from './changes/change-feed'
import { Committer } from './commit/committer'
import { WritePath } from './commit/write-path'
import { EngineError } from './errors'
import { GcFence } from './commit/gc-fence'
import { GcWatch } from './gc/gc-watch'
import { IndexUsage } from './indexes/index-usage'
import { maintainIndexes } from './indexes/index-maintenance'
import { runQuery } from './indexes/query/run-query'
import type { Clock } from './internal/clock'
import type { MetaStore } from './meta/meta-store'
import type { ObjectStore } from './objects/object-store'
import type { Totals } from './objects/tree-objects'
import { TreeView } from './read/tree-view'
import type { ViewContext } from './read/view-context'
import type { DatabaseState, StoredVersionState } from './state/database-state'
import type { FormatRecord } from './state/format-record'
import { HeadTotals } from './state/head-totals'
import { DatabaseMeters } from './stats/database-meters'
import { HEAD } from './meta/keys'
import { rootPage } from './objects/root-page'
import { pageTotals } from './objects/tree-objects'
import { SharedState } from './state/shared-state'
import { SharedChangeOrder } from './changes/shared-change-order'
import { recordChanges, trimmedRecordOps } from './changes/change-record'
import type { RecordedGroup } from './changes/change-record'
import type { DatabaseChange } from './changes/database-change'
import { loggedMove, loggedMoves } from './replay-changes'
import { DEFAULT_SHARED_POLL_MS, watchSharedStore } from './changes/shared-store-watch'

/** Storage and bookkeeping of an open database, before the core is built. */
export interface CoreParts {
  meta: MetaStore
  chunks: ChunkStore
  objects: ObjectStore
  state: DatabaseState
  format: FormatRecord
  clock: Clock
  headTotals: Totals
  /** True when any directory version has query indexes built (then writes maintain them). */
  indexesInUse: boolean
  /** How long versions named in the HEAD log are kept from GC. */
  headLogRetentionMs: number
  /**
   * Set when several processes share the database: the commit token the loaded state is
   * that of (0: none written yet).
   */
  sharedToken?: number
  /** Shared databases: how often a node with change listeners checks the token, in ms. */
  sharedPollMs?: number
}

/**
 * The composition root of an open database: builds each service once and wires the
 * committer's hooks to the services that own the state they change. Every field is a
 * service (or storage) that owns its state; nothing here is written from outside. Not
 * public API: the database hands each operation the services it asks for.
 */
export class EngineCore {
  readonly meta: MetaStore
  readonly chunks: ChunkStore
  readonly objects: ObjectStore
  /** Refs, their info, the persistent counters and the version log sequence. */
  readonly state: DatabaseState
  readonly format: FormatRecord
  readonly clock: Clock
  /** How long versions named in the HEAD log are kept from GC. */
  readonly headLogRetentionMs: number
  readonly meters: DatabaseMeters
  readonly view: ViewContext
  readonly feed: ChangeFeed
  readonly fence = new GcFence()
  readonly gc = new GcWatch()
  readonly indexes: IndexUsage
  readonly headTotals: HeadTotals
  readonly committer: Committer
  readonly writes: WritePath
  /**
   * Set when several processes share the database (`shared: true`): the commit token and the
   * reload of the version state. Unset, nothing is ever reloaded or guarded.
   */
  readonly shared: SharedState | undefined
  /**
   * Shared databases: the feed's order over every node's moves (this node's groups and the
   * moves reloads bring in), each reported once.
   */
  private readonly order: SharedChangeOrder | undefined
  /** Stops the watch of the store while the feed has listeners (shared databases). */
  private unwatch: (() => void) | undefined
  /**
   * The change records of the group being committed (one group persists at a time), kept
   * from its batch's ops to its report.
   */
  private recording: { changes: readonly DatabaseChange[]; group: RecordedGroup } | undefined
  private closed = false

  constructor(parts: CoreParts) {
    this.meta = parts.meta
    this.chunks = parts.chunks
    this.objects = parts.objects
    this.state = parts.state
    this.format = parts.format
    this.clock = parts.clock
    this.headLogRetentionMs = parts.headLogRetentionMs
    this.indexes = new IndexUsage(parts.indexesInUse)
    this.headTotals = new HeadTotals(
      parts.objects,
      () => parts.state.refs.get(HEAD),
      parts.headTotals,
    )
    const now = () => parts.clock.now()
    this.meters = new DatabaseMeters(now)
    this.view = {
      objects: parts.objects,
      chunks: parts.chunks,
      assertOpen: () => this.assertOpen(),
      onRead: (bytes, ms) => this.meters.read(bytes, ms),
      readBuffers: new ReadBufferPool(),
      query: async (root, options) => {
        const started = performance.now()
        const result = await runQuery(
          { objects: parts.objects, chunks: parts.chunks, meta: parts.meta },
          root,
          options,
        )
        this.meters.latency.query.record(performance.now() - started)
        return result
      },
    }
    this.shared =
      parts.sharedToken === undefined
        ? undefined
        : new SharedState(
            { meta: parts.meta, prepare: (stored) => this.prepareReload(stored) },
            parts.sharedToken,
          )
    const pollMs = parts.sharedPollMs ?? DEFAULT_SHARED_POLL_MS
    this.feed = new ChangeFeed(
      this.shared === undefined ? undefined : (listening) => this.watchStore(listening, pollMs),
    )
    this.order =
      this.shared === undefined
        ? undefined
        : new SharedChangeOrder({
            objects: parts.objects,
            loggedMoves: (first, last) => loggedMoves(parts.meta, first, last),
            state: () => ({
              refs: this.state.refs,
              infos: this.state.infos,
              logSeq: this.state.lastLogSeq,
            }),
            emit: (changes) => this.feed.emit(changes),
            listening: () => this.feed.listening,
            now,
          })
    this.committer = new Committer({
      meta: this.order === undefined ? parts.meta : trackedBatches(parts.meta, this.order),
      objects: parts.objects,
      chunks: parts.chunks,
      now,
      rootOf: (ref) => this.state.refs.get(ref),
      groupOps: (moves, tally, changes) => {
        // The sequences the group's moves take, should its batch commit.
        const first = this.state.lastLogSeq + 1
        this.order?.writing(first, moves.length)
        const group = recordChanges(changes, moves, first)
        this.recording = { changes, group }
        const ops = this.state.groupOps(moves, tally)
        // Records first: a log record trimmed in the same batch takes its record with it.
        return [...group.ops, ...ops, ...trimmedRecordOps(ops)]
      },
      onCommitted: (moves, tally, changes, current) => {
        const recording = this.recording
        this.recording = undefined
        // The group's moves took the sequences after the state's (embedded: always current).
        const group =
          recording?.changes === changes
            ? recording.group
            : recordChanges(changes, moves, this.state.lastLogSeq + 1)
        // Not current: a reload already installed a state holding these moves.
        if (current) this.state.committed(moves, tally)
        for (const move of moves) if (move.to !== null) this.gc.add(move.to)
        if (current && moves.some((m) => m.ref === HEAD)) this.headTotals.refresh()
        // Embedded: one node, so the group reports its own changes even past the record's limit.
        if (this.order === undefined) this.feed.emit(group.changes)
        else this.order.committed(moves.map(loggedMove), group)
      },
      onFlush: (ms) => this.meters.latency.flush.record(ms),
      derive: async (objects, from, to) => {
        if (!this.indexes.inUse) return { ops: [], roots: [] }
        return maintainIndexes({ objects, chunks: this.chunks, meta: this.meta }, from, to)
      },
      onDerived: (roots) => this.gc.add(...roots),
      ...(this.shared === undefined ? {} : { shared: this.shared }),
    })
    this.writes = new WritePath({ committer: this.committer, assertOpen: () => this.assertOpen() })
  }

  /**
   * What a reload installs besides the state: HEAD's totals (read now, so stats never lag)
   * and whether indexes are in use (another node may have built the first).
   */
  private async prepareReload(stored: StoredVersionState): Promise<() => void> {
    const head = stored.refs.get(HEAD)
    const totals = head === undefined ? undefined : pageTotals(await rootPage(this.objects, head))
    let indexed = this.indexes.inUse
    if (!indexed) for await (const _key of this.meta.keys('idx', { limit: 1 })) indexed = true
    return () => {
      this.state.replace(stored)
      this.order?.installed(stored.logSeq)
      if (totals !== undefined) this.headTotals.set(totals)
      if (indexed) this.indexes.markInUse()
    }
  }

  /** Shared databases: watches the store for other nodes' commits while anyone listens. */
  private watchStore(listening: boolean, pollMs: number): void {
    this.unwatch?.()
    this.unwatch = undefined
    const shared = this.shared
    if (!listening || this.closed || shared === undefined) return
    this.unwatch = watchSharedStore({
      meta: this.meta,
      pollMs,
      refresh: async () => {
        if (!this.closed) await shared.refresh()
      },
    })
  }

  /**
   * In shared mode, makes the version state at least as new as the store (one read of the
   * commit token; a reload when another node committed); nothing otherwise. Every public read
   * calls it first, so a read sees what any node acknowledged before it started.
   */
  async refreshShared(): Promise<void> {
    if (this.shared !== undefined) await this.shared.refresh()
  }

  get isClosed(): boolean {
    return this.closed
  }

  /** A read-only view of `root`. */
  viewOf(root: Uint8Array): TreeView {
    this.assertOpen()
    return new TreeView(this.view, root)
  }

  assertOpen(): void {
    if (this.closed) throw new EngineError('CLOSED', 'the database is closed')
  }

  /** Waits for queued writes, ends change iterations and releases the storage. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.unwatch?.()
    this.unwatch = undefined
    await this.committer.idle()
    await this.order?.close()
    this.feed.close()
    await this.chunks.close()
    await this.meta.close()
  }
}

/**
 * `meta` as the committer of a shared database writes to it: each batch is shown to `order`,
 * which holds the sequences of a group's moves until its batch settles.
 */
function trackedBatches(meta: MetaStore, order: SharedChangeOrder): MetaStore {
  return {
    get: (space, key) => meta.get(space, key),
    getMany: (space, keys) => meta.getMany(space, keys),
    batch(ops, options) {
      const batch = meta.batch(ops, options)
      order.track(batch)
      return batch
    },
    iterate: (space, range) => meta.iterate(space, range),
    keys: (space, range) => meta.keys(space, range),
    close: () => meta.close(),
  }
}
