import type { ChunkStore } from '../chunks/chunk-store'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { ObjectStore, WriteSet } from '../objects/object-store'
import type { DatabaseChange } from '../changes/database-change'
import { crashPoint } from '../internal/crash-point'
import type { RefMove, Tally } from '../state/ref-move'
import { CommitGroup } from './commit-group'
import type { Mutation } from './mutation'
import type { Pending } from './commit-group'

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

interface Exclusive {
  exclusive: () => Promise<unknown>
  resolve(value: unknown): void
  reject(err: unknown): void
}

/** A group being made durable, and the error it failed with (`undefined`: committed). */
interface Persisting {
  group: CommitGroup
  done: Promise<{ error: unknown } | undefined>
}

/**
 * Group commit (DESIGN §3.1), pipelined. Mutations are applied in order, as they arrive,
 * against the latest roots, into an open group; a group then pays one chunk flush
 * (fdatasync) and one synced metadata batch for all its mutations. While one group is being
 * made durable, the next one keeps forming on top of it (mutations marked `speculative`
 * only), so the CPU work of the next group overlaps the fsyncs of this one. Writers are
 * answered once their group is durable; if a group fails, the one formed on top of it is
 * applied again on the durable state. A mutation that throws is answered with its error and
 * leaves no trace. Since every ref moves only here, in order, no writer can lose another's
 * update.
 */
export class Committer {
  private queue: (Pending | Exclusive)[] = []
  private running: Promise<void> | undefined
  private wake: (() => void) | undefined

  constructor(private readonly deps: CommitterDeps) {}

  /** Queues a mutation and resolves with its result once it is durable. */
  submit<T>(mutation: Mutation<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.enqueue({ mutation, resolve: resolve as (v: unknown) => void, reject })
    })
  }

  /**
   * Runs `task` between groups, with no group committing meanwhile: the roots it sees cannot
   * move until it settles (GC sweeps use this). Mutations queued meanwhile wait for it.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.enqueue({ exclusive: task, resolve: resolve as (v: unknown) => void, reject })
    })
  }

  /** Resolves once every queued mutation has been handled. */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running
  }

  private enqueue(item: Pending | Exclusive): void {
    this.queue.push(item)
    this.wake?.()
    this.wake = undefined
    this.running ??= this.drain()
  }

  private arrival(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve))
  }

  private openGroup(base?: CommitGroup): CommitGroup {
    return new CommitGroup(this.deps.objects, this.deps.rootOf, this.deps.now(), base)
  }

  private async drain(): Promise<void> {
    let persisting: Persisting | undefined
    let open: CommitGroup | undefined
    try {
      for (;;) {
        const head = this.queue[0]
        // Join the open group: always on a durable base, only speculative ones on top of a
        // group still syncing (the others read more than their context).
        if (
          head !== undefined &&
          !('exclusive' in head) &&
          (persisting === undefined || head.mutation.speculative === true)
        ) {
          this.queue.shift()
          open ??= this.openGroup(persisting?.group)
          await open.apply(head)
          continue
        }
        if (persisting === undefined) {
          if (open !== undefined) {
            persisting = { group: open, done: this.persist(open) }
            open = undefined
            continue
          }
          if (head === undefined) return
          this.queue.shift()
          const task = head as Exclusive
          await task.exclusive().then(task.resolve, task.reject)
          continue
        }
        // Wait for the group syncing, or for a mutation to apply meanwhile.
        const { done } = persisting
        const settled = await Promise.race([
          done.then(() => true),
          this.arrival().then(() => false),
        ])
        if (!settled) continue
        persisting = undefined
        if (open === undefined) continue
        const failure = await done
        if (failure === undefined) {
          open.detach()
          continue
        }
        // Built on roots that never became durable: apply the same mutations again.
        const pendings = open.pendings
        open = this.openGroup()
        for (const pending of pendings) await open.apply(pending)
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
        for (const op of outcome.ops) ops.push(op)
        for (const root of outcome.roots) roots.push(root)
      } catch {
        objects.rollback(mark)
      }
    }
    return { ops, roots }
  }

  /**
   * Makes a group durable (chunk flush, then one synced batch) and answers its writers.
   * Never throws: resolves with the batch's error when it failed.
   */
  private async persist(group: CommitGroup): Promise<{ error: unknown } | undefined> {
    const { deps } = this
    const { objects, tally } = group
    if (!group.hasWork) {
      group.settle()
      return undefined
    }
    group.close()
    const { moves, changes } = group
    let derived: { ops: MetaOp[]; roots: Uint8Array[] } | undefined
    try {
      derived = deps.derive === undefined ? undefined : await this.derived(objects, moves)
      const started = performance.now()
      const chunkOps = await deps.chunks.flush()
      const refOps = [...group.roots].map(([ref, root]): MetaOp =>
        root === null
          ? { type: 'del', space: 'ref', key: ref }
          : { type: 'put', space: 'ref', key: ref, value: root },
      )
      crashPoint('before-meta-batch')
      // A HEAD log record is written in this very batch: cut here, neither it nor the move is.
      if (moves.some((move) => move.headLog !== undefined)) crashPoint('mid-head-log-write')
      await deps.meta.batch(
        [
          ...objects.ops(),
          ...group.ops,
          ...(derived?.ops ?? []),
          ...chunkOps,
          ...refOps,
          ...deps.groupOps(moves, tally),
        ],
        { sync: true },
      )
      crashPoint('after-meta-batch')
      deps.onFlush?.(performance.now() - started)
    } catch (error) {
      group.settle({ error })
      return { error }
    }
    deps.chunks.committed()
    deps.objects.adopt(objects.entries())
    deps.onCommitted(moves, tally, changes)
    if (derived !== undefined && derived.roots.length > 0) deps.onDerived?.(derived.roots)
    group.settle()
    return undefined
  }
}
