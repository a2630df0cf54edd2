import type { ChunkStore } from '../chunks/chunk-store'
import { EngineError, isEngineError } from '../errors'
import type { MetaGuard, MetaOp, MetaStore } from '../meta/meta-store'
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
  /**
   * Extra ops for a group about to commit (version log, counters, change records), from its
   * ref moves and the changes it reports.
   */
  groupOps(moves: readonly RefMove[], tally: Tally, changes: readonly DatabaseChange[]): MetaOp[]
  /**
   * Called after a group is durable, before its writers are answered. `current` is false when
   * a reload of a shared database already installed a state holding the group's moves.
   */
  onCommitted(
    moves: readonly RefMove[],
    tally: Tally,
    changes: readonly DatabaseChange[],
    current: boolean,
  ): void
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
  /**
   * Set when several processes share the database: every batch is a compare-and-set on the
   * commit token, and a group that loses to another node's batch is formed again on the
   * reloaded state. Unset, batches carry no guard.
   */
  shared?: SharedCommits
}

/** The commit token of a shared database, as the committer uses it (see `SharedState`). */
export interface SharedCommits {
  /** The token of the committed state in memory. */
  readonly token: number
  /** The guard and token op of a batch of a group formed on the state of token `basis`. */
  seal(basis: number): { guards: MetaGuard[]; ops: MetaOp[] }
  /** A batch formed on `basis` committed; false when a reload already holds it. */
  committed(basis: number): boolean
  /** Reloads the state from the store, when it holds a newer one. */
  reload(): Promise<void>
}

/** Batches one mutation may lose to other nodes' before its writer gets `CONFLICT`. */
export const MAX_SHARED_ATTEMPTS = 50

/** Longest pause before forming a group again after a lost batch, in ms (jittered). */
const MAX_CONFLICT_BACKOFF_MS = 50

/** How a group's persist ended: committed (`undefined`), failed, or lost to another node. */
type Persisted = undefined | { error: unknown } | { conflict: true }

const LOST: Persisted = { conflict: true }

interface Exclusive {
  exclusive: () => Promise<unknown>
  resolve(value: unknown): void
  reject(err: unknown): void
}

/** A group being made durable, and the error it failed with (`undefined`: committed). */
interface Persisting {
  group: CommitGroup
  done: Promise<Persisted>
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
 *
 * Shared by several processes (`deps.shared`), each group's batch also expects the commit
 * token of the state it was formed on. When another node committed first, the batch fails
 * with `CONFLICT`: the state is reloaded and the group's mutations (and those of the group
 * formed on top of it) are applied again, in order, on the new roots, up to
 * {@link MAX_SHARED_ATTEMPTS} times per mutation. A group whose mutations all failed checks
 * the token too, so an error (a failed `ifMatch`, say) is never decided on a stale state.
 */
export class Committer {
  private queue: (Pending | Exclusive)[] = []
  private running: Promise<void> | undefined
  private wake: (() => void) | undefined
  /** Shared databases: chunk ops of a lost batch, committed with the next one. */
  private carried: MetaOp[] = []

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
    const { deps } = this
    return new CommitGroup(deps.objects, deps.rootOf, deps.now(), base, deps.shared?.token)
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
        const lost = persisting.group
        persisting = undefined
        const failure = await done
        if (failure !== undefined && 'conflict' in failure) {
          open = await this.formAgain(lost.pendings, open?.pendings ?? [])
          continue
        }
        if (open === undefined) continue
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

  /**
   * A shared database's group lost to another node's batch: after a short jittered pause,
   * reloads the state and applies the group's mutations again on it, then those of the group
   * formed on top of it, in their order. A mutation that lost too often is answered `CONFLICT`.
   */
  private async formAgain(
    lost: readonly Pending[],
    above: readonly Pending[],
  ): Promise<CommitGroup | undefined> {
    const shared = this.deps.shared as SharedCommits
    const again: Pending[] = []
    let worst = 0
    for (const pending of lost) {
      const conflicts = (pending.conflicts ?? 0) + 1
      pending.conflicts = conflicts
      worst = Math.max(worst, conflicts)
      if (conflicts < MAX_SHARED_ATTEMPTS) again.push(pending)
      else
        pending.reject(
          new EngineError(
            'CONFLICT',
            `other processes sharing the database kept committing first: gave up after ${conflicts} attempts; nothing was changed`,
          ),
        )
    }
    for (const pending of above) again.push(pending)
    const pause = Math.random() * Math.min(MAX_CONFLICT_BACKOFF_MS, 2 ** worst)
    await new Promise((resolve) => setTimeout(resolve, pause))
    // A failed reload leaves the old state: the next batch loses again, within the bound.
    await shared.reload().catch(() => undefined)
    if (again.length === 0) return undefined
    const group = this.openGroup()
    for (const pending of again) await group.apply(pending)
    return group
  }

  /**
   * Shared databases: true when the token moved past the state `group` was formed on, found
   * with a batch of no ops (a guard only).
   */
  private async stale(group: CommitGroup): Promise<boolean> {
    const { deps } = this
    const { guards } = (deps.shared as SharedCommits).seal(group.basis)
    try {
      await deps.meta.batch([], { sync: false, guards })
      return false
    } catch (error) {
      // Anything else: the errors stand as decided.
      return isEngineError(error, 'CONFLICT')
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
  private async persist(group: CommitGroup): Promise<Persisted> {
    const { deps } = this
    const { objects, tally } = group
    if (!group.hasWork) {
      // Errors decided on a state another node had moved on from are decided again.
      if (deps.shared !== undefined && group.hasErrors && (await this.stale(group))) return LOST
      group.settle()
      return undefined
    }
    group.close()
    const { moves, changes } = group
    const seal = deps.shared?.seal(group.basis)
    let derived: { ops: MetaOp[]; roots: Uint8Array[] } | undefined
    try {
      derived = deps.derive === undefined ? undefined : await this.derived(objects, moves)
      const started = performance.now()
      let chunkOps = await deps.chunks.flush()
      if (this.carried.length > 0) chunkOps = mergeOps(this.carried, chunkOps)
      const refOps = [...group.roots].map(([ref, root]): MetaOp =>
        root === null
          ? { type: 'del', space: 'ref', key: ref }
          : { type: 'put', space: 'ref', key: ref, value: root },
      )
      crashPoint('before-meta-batch')
      // A HEAD log record is written in this very batch: cut here, neither it nor the move is.
      if (moves.some((move) => move.headLog !== undefined)) crashPoint('mid-head-log-write')
      const ops = [
        ...objects.ops(),
        ...group.ops,
        ...(derived?.ops ?? []),
        ...chunkOps,
        ...refOps,
        ...deps.groupOps(moves, tally, changes),
      ]
      if (seal === undefined) await deps.meta.batch(ops, { sync: true })
      else {
        try {
          for (const op of seal.ops) ops.push(op)
          await deps.meta.batch(ops, { sync: true, guards: seal.guards })
        } catch (error) {
          if (!isEngineError(error, 'CONFLICT')) throw error
          // Flushed chunks are durable, but only this batch recorded them: keep the ops.
          this.carried = chunkOps
          return LOST
        }
        this.carried = []
      }
      crashPoint('after-meta-batch')
      deps.onFlush?.(performance.now() - started)
    } catch (error) {
      group.settle({ error })
      return { error }
    }
    deps.chunks.committed()
    deps.objects.adopt(objects.entries())
    const current = deps.shared === undefined || deps.shared.committed(group.basis)
    deps.onCommitted(moves, tally, changes, current)
    if (derived !== undefined && derived.roots.length > 0) deps.onDerived?.(derived.roots)
    group.settle()
    return undefined
  }
}

/** `first`, then `then`, one op per key: a later op on a key replaces an earlier one. */
function mergeOps(first: readonly MetaOp[], then: readonly MetaOp[]): MetaOp[] {
  const byKey = new Map<string, MetaOp>()
  for (const op of [...first, ...then]) {
    const key = typeof op.key === 'string' ? op.key : Buffer.from(op.key).toString('hex')
    byKey.delete(`${op.space}/${key}`)
    byKey.set(`${op.space}/${key}`, op)
  }
  return [...byKey.values()]
}
