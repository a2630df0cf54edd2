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
  readonly feed = new ChangeFeed()
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
    this.committer = new Committer({
      meta: parts.meta,
      objects: parts.objects,
      chunks: parts.chunks,
      now,
      rootOf: (ref) => this.state.refs.get(ref),
      groupOps: (moves, tally) => this.state.groupOps(moves, tally),
      onCommitted: (moves, tally, changes, current) => {
        // Not current: a reload already installed a state holding these moves.
        if (current) this.state.committed(moves, tally)
        for (const move of moves) if (move.to !== null) this.gc.add(move.to)
        if (current && moves.some((m) => m.ref === HEAD)) this.headTotals.refresh()
        this.feed.emit(changes)
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
      if (totals !== undefined) this.headTotals.set(totals)
      if (indexed) this.indexes.markInUse()
    }
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
    await this.committer.idle()
    this.feed.close()
    await this.chunks.close()
    await this.meta.close()
  }
}
