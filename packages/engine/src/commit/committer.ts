import type { ChunkStore } from '../chunks/chunk-store'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import { WriteSet } from '../objects/object-store'
import type { DatabaseChange } from '../changes/database-change'
import { EngineError } from '../errors'
import { crashPoint } from '../internal/crash-point'
import type { HeadLogMark } from '../versions/head-log-record'
import { describeRef } from '../versions/ref-names'

const NO_ROOT = new Uint8Array(0)

/** What a mutation sees: roots of refs as of its turn, the group's object write set, the time. */
export interface MutationContext {
  /** Current root of the mutation's ref (an empty array for a mutation with no ref). */
  root: Uint8Array
  /** Current root of any ref, counting earlier mutations of the same group. */
  rootOf(ref: string): Uint8Array | undefined
  objects: WriteSet
  now: number
}

/** Storage a mutation added (or, negative, removed), summed per group for the persistent counters. */
export interface Tally {
  chunks: number
  rawBytes: number
  storedBytes: number
}

/** What is recorded with a snapshot or fork ref besides its root. */
export interface RefInfo {
  /** Unix milliseconds. */
  createdAt: number
  metadata?: Record<string, unknown>
  /** Hex hash of the version a fork started from. */
  base?: string
}

/** A ref set to a root (with its info, when it has one), or removed (`null`). */
export interface RefUpdate {
  ref: string
  root: Uint8Array | null
  info?: RefInfo
  /** Set on a HEAD move that replaces history: recorded in the HEAD log, in the same batch. */
  headLog?: HeadLogMark
}

/** What a mutation produced: new roots, extra ops for the batch, changes to report, its result. */
export interface MutationOutcome<T> {
  /** New root of the mutation's ref; omitted leaves it as it is. */
  root?: Uint8Array
  /** HEAD-log mark of the move of the mutation's ref to `root` (see {@link RefUpdate.headLog}). */
  headLog?: HeadLogMark
  /** Moves of other refs (or of refs, for a mutation without one). */
  refs?: RefUpdate[]
  ops?: MetaOp[]
  tally?: Tally
  /** Reported on the change feed once the group is durable. */
  changes?: DatabaseChange[]
  result: T
}

/**
 * A change applied in order against the latest roots. With a `ref`, the ref must exist
 * (else `NOT_FOUND`) and `root` is its current root; without one, the mutation works on
 * whatever refs it names.
 */
export interface Mutation<T> {
  ref?: string
  apply(context: MutationContext): Promise<MutationOutcome<T>>
}

/** A committed ref move (`null`: absent before, or removed), for the version log and stats. */
export interface RefMove {
  ref: string
  from: Uint8Array | null
  to: Uint8Array | null
  at: number
  /** Info to record with the ref (a new snapshot or fork). */
  info?: RefInfo
  /** See {@link RefUpdate.headLog}. */
  headLog?: HeadLogMark
}

/** Hooks the database gives the committer. */
export interface CommitterDeps {
  meta: MetaStore
  objects: ObjectStore
  chunks: ChunkStore
  now(): number
  /** Current committed root of a ref. */
  rootOf(ref: string): Uint8Array | undefined
  /** Extra ops for a group about to commit (version log, counters), from its ref moves. */
  groupOps(moves: readonly RefMove[], tally: Tally): MetaOp[]
  /** Called after a group is durable, before its writers are answered. */
  onCommitted(moves: readonly RefMove[], tally: Tally, changes: readonly DatabaseChange[]): void
  /** Measures the durable part of a group (pack sync + synced batch), in ms. */
  onFlush?(ms: number): void
  /**
   * Derived data to update with a ref's move from `from` to `to` (query indexes): extra ops
   * for the same batch. Best effort: a failure leaves the derived data unbuilt, never fails
   * the writes.
   */
  derive?(
    objects: WriteSet,
    from: Uint8Array,
    to: Uint8Array,
  ): Promise<{ ops: MetaOp[]; roots: Uint8Array[] }>
  /** Called after a group is durable with the roots of the derived data it wrote (for GC). */
  onDerived?(roots: readonly Uint8Array[]): void
}

interface Pending {
  mutation: Mutation<unknown>
  resolve(value: unknown): void
  reject(err: unknown): void
}

interface Exclusive {
  exclusive: () => Promise<unknown>
  resolve(value: unknown): void
  reject(err: unknown): void
}

/**
 * Group commit (DESIGN §3.1): mutations queue up while a group is being made durable; the
 * next group applies all of them in order against the latest roots, then pays one chunk
 * flush (fdatasync) and one synced metadata batch for all. A mutation that throws is answered
 * with its error and leaves no trace; the others commit. Since every ref moves only here, in
 * order, no writer can lose another's update.
 */
export class Committer {
  private queue: (Pending | Exclusive)[] = []
  private running: Promise<void> | undefined

  constructor(private readonly deps: CommitterDeps) {}

  /** Queues a mutation and resolves with its result once it is durable. */
  submit<T>(mutation: Mutation<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ mutation, resolve: resolve as (v: unknown) => void, reject })
      this.running ??= this.drain()
    })
  }

  /**
   * Runs `task` between groups, with no group committing meanwhile: the roots it sees cannot
   * move until it settles (GC sweeps use this). Mutations queued meanwhile wait for it.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ exclusive: task, resolve: resolve as (v: unknown) => void, reject })
      this.running ??= this.drain()
    })
  }

  /** Resolves once every queued mutation has been handled. */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const first = this.queue[0] as Pending | Exclusive
        if ('exclusive' in first) {
          this.queue.shift()
          await first.exclusive().then(first.resolve, first.reject)
          continue
        }
        const end = this.queue.findIndex((item) => 'exclusive' in item)
        await this.commitGroup(this.queue.splice(0, end < 0 ? this.queue.length : end) as Pending[])
      }
    } finally {
      this.running = undefined
    }
  }

  /** Derived ops for each ref the group moved, from its first root to its last. */
  private async derived(
    objects: WriteSet,
    moves: readonly RefMove[],
  ): Promise<{ ops: MetaOp[]; roots: Uint8Array[] }> {
    const spans = new Map<string, { from: Uint8Array | null; to: Uint8Array | null }>()
    for (const move of moves) {
      const span = spans.get(move.ref)
      if (span === undefined) spans.set(move.ref, { from: move.from, to: move.to })
      else span.to = move.to
    }
    const ops: MetaOp[] = []
    const roots: Uint8Array[] = []
    const derive = this.deps.derive as NonNullable<CommitterDeps['derive']>
    for (const { from, to } of spans.values()) {
      if (from === null || to === null) continue
      const mark = objects.mark()
      try {
        const outcome = await derive(objects, from, to)
        ops.push(...outcome.ops)
        roots.push(...outcome.roots)
      } catch {
        objects.rollback(mark)
      }
    }
    return { ops, roots }
  }

  private async commitGroup(group: Pending[]): Promise<void> {
    const { deps } = this
    const objects = new WriteSet(deps.objects)
    const roots = new Map<string, Uint8Array | null>()
    const moves: RefMove[] = []
    const ops: MetaOp[] = []
    const changes: DatabaseChange[] = []
    const done: { pending: Pending; result: unknown }[] = []
    const tally: Tally = { chunks: 0, rawBytes: 0, storedBytes: 0 }
    const now = deps.now()
    const rootOf = (ref: string): Uint8Array | undefined =>
      roots.has(ref) ? (roots.get(ref) ?? undefined) : deps.rootOf(ref)
    for (const pending of group) {
      const { ref } = pending.mutation
      const mark = objects.mark()
      try {
        const root = ref === undefined ? NO_ROOT : rootOf(ref)
        if (root === undefined)
          throw new EngineError('NOT_FOUND', `${describeRef(ref as string)} does not exist`)
        const outcome = await pending.mutation.apply({ root, rootOf, objects, now })
        const updates = outcome.refs ?? []
        if (outcome.root !== undefined && ref !== undefined)
          updates.unshift({
            ref,
            root: outcome.root,
            ...(outcome.headLog === undefined ? {} : { headLog: outcome.headLog }),
          })
        for (const update of updates) {
          const move: RefMove = {
            ref: update.ref,
            from: rootOf(update.ref) ?? null,
            to: update.root,
            at: now,
          }
          if (update.info !== undefined) move.info = update.info
          if (update.headLog !== undefined) move.headLog = update.headLog
          moves.push(move)
          roots.set(update.ref, update.root)
        }
        if (outcome.ops !== undefined) ops.push(...outcome.ops)
        if (outcome.changes !== undefined) changes.push(...outcome.changes)
        if (outcome.tally !== undefined) {
          tally.chunks += outcome.tally.chunks
          tally.rawBytes += outcome.tally.rawBytes
          tally.storedBytes += outcome.tally.storedBytes
        }
        done.push({ pending, result: outcome.result })
      } catch (err) {
        objects.rollback(mark)
        pending.reject(err)
      }
    }
    if (done.length === 0) return
    const derived = deps.derive === undefined ? undefined : await this.derived(objects, moves)
    if (derived !== undefined) ops.push(...derived.ops)
    try {
      const started = performance.now()
      const chunkOps = await deps.chunks.flush()
      const refOps = [...roots].map(([ref, root]): MetaOp =>
        root === null
          ? { type: 'del', space: 'ref', key: ref }
          : { type: 'put', space: 'ref', key: ref, value: root },
      )
      crashPoint('before-meta-batch')
      // A HEAD log record is written in this very batch: cut here, neither it nor the move is.
      if (moves.some((move) => move.headLog !== undefined)) crashPoint('mid-head-log-write')
      await deps.meta.batch(
        [...objects.ops(), ...ops, ...chunkOps, ...refOps, ...deps.groupOps(moves, tally)],
        { sync: true },
      )
      crashPoint('after-meta-batch')
      deps.onFlush?.(performance.now() - started)
    } catch (err) {
      for (const { pending } of done) pending.reject(err)
      return
    }
    deps.chunks.committed()
    deps.objects.adopt(objects.entries())
    deps.onCommitted(moves, tally, changes)
    if (derived !== undefined && derived.roots.length > 0) deps.onDerived?.(derived.roots)
    for (const { pending, result } of done) pending.resolve(result)
  }
}
