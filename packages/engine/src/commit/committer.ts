import type { ChunkStore } from '../chunks/chunk-store'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import { WriteSet } from '../objects/object-store'

/** What a mutation sees: the current root of its ref and the group's object write set. */
export interface MutationContext {
  root: Uint8Array
  objects: WriteSet
  now: number
}

/** Storage a mutation added, summed per group for the persistent counters. */
export interface Tally {
  chunks: number
  rawBytes: number
  storedBytes: number
}

/** What a mutation produced: the ref's new root, extra ops for the batch, and its result. */
export interface MutationOutcome<T> {
  root: Uint8Array
  ops?: MetaOp[]
  tally?: Tally
  result: T
}

/** A change of one ref, applied in order against the latest root. */
export interface Mutation<T> {
  ref: string
  apply(context: MutationContext): Promise<MutationOutcome<T>>
}

/** A committed ref move, for the version log, counters and the change feed. */
export interface RefMove {
  ref: string
  from: Uint8Array
  to: Uint8Array
  at: number
}

/** Hooks the database gives the committer. */
export interface CommitterDeps {
  meta: MetaStore
  objects: ObjectStore
  chunks: ChunkStore
  now(): number
  /** Current committed root of a ref. */
  rootOf(ref: string): Uint8Array
  /** Extra ops for a group about to commit (version log, counters), from its ref moves. */
  groupOps(moves: readonly RefMove[], tally: Tally): MetaOp[]
  /** Called after a group is durable, before its writers are answered. */
  onCommitted(moves: readonly RefMove[], tally: Tally): void
  /** Measures the durable part of a group (pack sync + synced batch), in ms. */
  onFlush?(ms: number): void
}

interface Pending {
  mutation: Mutation<unknown>
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
  private queue: Pending[] = []
  private running: Promise<void> | undefined

  constructor(private readonly deps: CommitterDeps) {}

  /** Queues a mutation and resolves with its result once it is durable. */
  submit<T>(mutation: Mutation<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ mutation, resolve: resolve as (v: unknown) => void, reject })
      this.running ??= this.drain()
    })
  }

  /** Resolves once every queued mutation has been handled. */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commitGroup(this.queue.splice(0))
    } finally {
      this.running = undefined
    }
  }

  private async commitGroup(group: Pending[]): Promise<void> {
    const { deps } = this
    const objects = new WriteSet(deps.objects)
    const roots = new Map<string, Uint8Array>()
    const moves: RefMove[] = []
    const ops: MetaOp[] = []
    const done: { pending: Pending; result: unknown }[] = []
    const tally: Tally = { chunks: 0, rawBytes: 0, storedBytes: 0 }
    const now = deps.now()
    for (const pending of group) {
      const { ref } = pending.mutation
      const mark = objects.mark()
      const from = roots.get(ref) ?? deps.rootOf(ref)
      try {
        const outcome = await pending.mutation.apply({ root: from, objects, now })
        roots.set(ref, outcome.root)
        if (outcome.ops !== undefined) ops.push(...outcome.ops)
        if (outcome.tally !== undefined) {
          tally.chunks += outcome.tally.chunks
          tally.rawBytes += outcome.tally.rawBytes
          tally.storedBytes += outcome.tally.storedBytes
        }
        moves.push({ ref, from, to: outcome.root, at: now })
        done.push({ pending, result: outcome.result })
      } catch (err) {
        objects.rollback(mark)
        pending.reject(err)
      }
    }
    if (done.length === 0) return
    try {
      const started = performance.now()
      const chunkOps = await deps.chunks.flush()
      const refOps: MetaOp[] = [...roots].map(([ref, root]) => ({
        type: 'put',
        space: 'ref',
        key: ref,
        value: root,
      }))
      await deps.meta.batch(
        [...objects.ops(), ...ops, ...chunkOps, ...refOps, ...deps.groupOps(moves, tally)],
        { sync: true },
      )
      deps.onFlush?.(performance.now() - started)
    } catch (err) {
      for (const { pending } of done) pending.reject(err)
      return
    }
    deps.chunks.committed()
    deps.objects.adopt(objects.entries())
    deps.onCommitted(moves, tally)
    for (const { pending, result } of done) pending.resolve(result)
  }
}
