import type { ChunkStore } from './chunks/chunk-store'
import { ReadBufferPool } from './read/read-buffer-pool'
import { ChangeFeed } from './changes/change-feed'
import { Committer } from './commit/committer'
import type { Mutation } from './commit/committer'
import type { DatabaseState, FormatRecord } from './database-state'
import { EngineError } from './errors'
import { GcFence } from './gc/gc-fence'
import type { MetaStore } from './meta/meta-store'
import { maintainIndexes } from './indexes/index-maintenance'
import { runQuery } from './indexes/query/run-query'
import type { ObjectStore } from './objects/object-store'
import { pageTotals } from './objects/tree-objects'
import type { DirPage, Totals } from './objects/tree-objects'
import { TreeView } from './read/tree-view'
import type { ViewContext } from './read/tree-view'
import { DatabaseMeters } from './stats/database-meters'
import { describeRef, HEAD } from './meta/keys'

/** A source of the current time in Unix milliseconds; injectable for tests. */
export interface Clock {
  now(): number
}

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
}

/**
 * What every part of an open database shares: storage, the committer (the only way refs
 * move), refs and counters, meters, the change feed and the GC fence. Not public API: the
 * database and its workspaces, versions, archives and GC are built on it.
 */
export class EngineCore {
  readonly meta: MetaStore
  readonly chunks: ChunkStore
  readonly objects: ObjectStore
  readonly state: DatabaseState
  readonly format: FormatRecord
  readonly clock: Clock
  /** How long versions named in the HEAD log are kept from GC. */
  readonly headLogRetentionMs: number
  readonly meters: DatabaseMeters
  readonly view: ViewContext
  readonly feed = new ChangeFeed()
  readonly fence = new GcFence()
  readonly committer: Committer
  /** Roots that became reachable since a GC started marking (its re-mark set); else undefined. */
  gcWatch: Uint8Array[] | undefined
  headTotals: Totals
  pendingWrites = 0
  /**
   * Uploads and imports between their first staged chunk and their commit: pack compaction
   * must not start while one holds ops it has not committed.
   */
  activeWrites = 0
  private writeGate: Promise<void> | undefined
  private onQuiet: (() => void) | undefined
  /** Bytes the latest garbage collection reclaimed. */
  gcLastReclaimedBytes = 0
  /** Set once any query index is built: until then writes skip index maintenance. */
  indexesInUse: boolean
  private closed = false

  constructor(parts: CoreParts) {
    this.meta = parts.meta
    this.chunks = parts.chunks
    this.objects = parts.objects
    this.state = parts.state
    this.format = parts.format
    this.clock = parts.clock
    this.headLogRetentionMs = parts.headLogRetentionMs
    this.headTotals = parts.headTotals
    this.indexesInUse = parts.indexesInUse
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
    this.committer = new Committer({
      meta: parts.meta,
      objects: parts.objects,
      chunks: parts.chunks,
      now,
      rootOf: (ref) => this.state.refs.get(ref),
      groupOps: (moves, tally) => this.state.groupOps(moves, tally),
      onCommitted: (moves, tally, changes) => {
        this.state.committed(moves, tally)
        for (const move of moves) if (move.to !== null) this.gcWatch?.push(move.to)
        if (moves.some((m) => m.ref === HEAD)) this.refreshHeadTotals()
        this.feed.emit(changes)
      },
      onFlush: (ms) => this.meters.latency.flush.record(ms),
      derive: async (objects, from, to) => {
        if (!this.indexesInUse) return { ops: [], roots: [] }
        return maintainIndexes({ objects, chunks: this.chunks, meta: this.meta }, from, to)
      },
      onDerived: (roots) => this.gcWatch?.push(...roots),
    })
  }

  /** Marks the start of an upload or import; waits while writes are held (see holdWrites). */
  async enterWrite(): Promise<void> {
    while (this.writeGate !== undefined) await this.writeGate
    this.activeWrites++
  }

  /** Marks the end (commit or failure) of an upload or import. */
  exitWrite(): void {
    this.activeWrites--
    if (this.activeWrites === 0) this.onQuiet?.()
  }

  /**
   * Holds new uploads and imports, waits up to `waitMs` for running ones to finish, and runs
   * `task` between commit groups once none is running; `undefined` if they did not finish in
   * time. New writes resume as soon as `task` has started.
   */
  async holdWrites<T>(waitMs: number, task: () => T): Promise<{ value: T } | undefined> {
    let release = (): void => undefined
    this.writeGate = new Promise<void>((resolve) => (release = resolve))
    try {
      if (this.activeWrites > 0) {
        const quiet = new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), waitMs)
          this.onQuiet = () => {
            clearTimeout(timer)
            resolve(true)
          }
        })
        const settled = await quiet
        this.onQuiet = undefined
        if (!settled) return undefined
      }
      return await this.committer.exclusive(async () =>
        this.activeWrites === 0 ? { value: task() } : undefined,
      )
    } finally {
      this.writeGate = undefined
      release()
    }
  }

  get isClosed(): boolean {
    return this.closed
  }

  /** Queues a mutation and resolves once it is durable. */
  async submit<T>(mutation: Mutation<T>): Promise<T> {
    this.assertOpen()
    this.pendingWrites++
    try {
      return await this.committer.submit(mutation)
    } finally {
      this.pendingWrites--
    }
  }

  /** The committed root of `ref`; `NOT_FOUND` when it does not exist. */
  rootOf(ref: string): Uint8Array {
    const root = this.state.refs.get(ref)
    if (root === undefined) throw new EngineError('NOT_FOUND', `${describeRef(ref)} does not exist`)
    return root
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

  private refreshHeadTotals(): void {
    const head = this.rootOf(HEAD)
    // The new root page was just committed, so it is normally in the cache.
    const cached = this.objects.peek(head)
    if (cached !== undefined && (cached.type === 'leaf' || cached.type === 'node')) {
      this.headTotals = pageTotals(cached)
      return
    }
    void rootPage(this.objects, head).then(
      (page) => {
        if (this.state.refs.get(HEAD) === head) this.headTotals = pageTotals(page)
      },
      () => undefined,
    )
  }
}

/** The root page of a version; `CONTENT_CORRUPT` if the object is not a directory. */
export async function rootPage(objects: ObjectStore, hash: Uint8Array): Promise<DirPage> {
  const page = await objects.get(hash)
  if (page.type !== 'leaf' && page.type !== 'node')
    throw new EngineError('CONTENT_CORRUPT', 'the root of a version is not a directory')
  return page
}
