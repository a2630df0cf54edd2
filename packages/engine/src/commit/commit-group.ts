import type { DatabaseChange } from '../changes/database-change'
import { EngineError } from '../errors'
import type { MetaOp } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import { WriteSet } from '../objects/object-store'
import { describeRef } from '../meta/keys'
import { collapseVersions, refOfChange } from './collapse-versions'
import type { Mutation } from './mutation'
import type { RefMove, Tally } from '../state/ref-move'

const NO_ROOT = new Uint8Array(0)

/** A queued mutation and how to answer its writer. */
export interface Pending {
  mutation: Mutation<unknown>
  resolve(value: unknown): void
  reject(err: unknown): void
  /** Shared databases: batches of this mutation's groups that lost to another node's. */
  conflicts?: number
}

/** A result naming the version it produced (how tree edits report it). */
function isVersioned(result: unknown): result is { version: string } {
  return (
    typeof result === 'object' &&
    result !== null &&
    typeof (result as { version?: unknown }).version === 'string'
  )
}

/** What a mutation came to in its group: a result to give once durable, or its error. */
type Outcome = { pending: Pending; result: unknown } | { pending: Pending; error: unknown }

/**
 * The mutations of one group commit, applied in order as they arrive, each against the roots
 * the previous ones produced. A group may be built on top of another group still being made
 * durable (its `base`): it then reads that group's objects and roots. Writers are answered
 * only by {@link CommitGroup.settle}, once the group's fate is known.
 */
export class CommitGroup {
  readonly objects: WriteSet
  /** Refs this group moved: their latest roots (`null`: removed). */
  readonly roots = new Map<string, Uint8Array | null>()
  moves: RefMove[] = []
  readonly ops: MetaOp[] = []
  changes: DatabaseChange[] = []
  readonly tally: Tally = { chunks: 0, rawBytes: 0, storedBytes: 0 }
  private readonly outcomes: Outcome[] = []
  /** Every mutation applied was a tree edit (`speculative`): its versions may be folded. */
  private treeEditsOnly = true

  /**
   * Shared databases: the commit token of the state this group is formed on (its base's next
   * one on top of a base); its batch holds only while the store's token is still this.
   */
  readonly basis: number

  constructor(
    store: ObjectStore,
    private readonly committedRootOf: (ref: string) => Uint8Array | undefined,
    readonly now: number,
    private base?: CommitGroup,
    committedToken = 0,
  ) {
    this.objects = new WriteSet(store, base?.objects)
    this.basis = base === undefined ? committedToken : base.nextToken
  }

  /** The token once this group committed: raised only by a group that writes a batch. */
  get nextToken(): number {
    return this.hasWork ? this.basis + 1 : this.basis
  }

  /** Current root of `ref`, counting this group's moves and its base's. */
  readonly rootOf = (ref: string): Uint8Array | undefined => {
    if (this.roots.has(ref)) return this.roots.get(ref) ?? undefined
    return this.base === undefined ? this.committedRootOf(ref) : this.base.rootOf(ref)
  }

  /** The pending writers, in order (to apply them again on another base). */
  get pendings(): Pending[] {
    return this.outcomes.map((o) => o.pending)
  }

  /** True when at least one mutation succeeded, so the group has something to commit. */
  get hasWork(): boolean {
    return this.outcomes.some((o) => 'result' in o)
  }

  /** True when some mutation failed (its error was decided on the state the group saw). */
  get hasErrors(): boolean {
    return this.outcomes.some((o) => 'error' in o)
  }

  /** The base group committed: everything it wrote is now in the store and the refs. */
  detach(): void {
    this.base = undefined
    this.objects.detach()
  }

  /** Applies one mutation; a throw leaves no trace in the group and becomes its answer. */
  async apply(pending: Pending): Promise<void> {
    const { ref } = pending.mutation
    const { objects, now, rootOf } = this
    if (pending.mutation.speculative !== true) this.treeEditsOnly = false
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
        this.moves.push(move)
        this.roots.set(update.ref, update.root)
      }
      // Loops, not spreads: a bulk write can carry more ops than a call takes arguments.
      for (const op of outcome.ops ?? []) this.ops.push(op)
      for (const change of outcome.changes ?? []) this.changes.push(change)
      if (outcome.tally !== undefined) {
        this.tally.chunks += outcome.tally.chunks
        this.tally.rawBytes += outcome.tally.rawBytes
        this.tally.storedBytes += outcome.tally.storedBytes
      }
      this.outcomes.push({ pending, result: outcome.result })
    } catch (error) {
      objects.rollback(mark)
      this.outcomes.push({ pending, error })
    }
  }

  /**
   * Once no more mutations join: when the group only edited trees, folds the versions its
   * mutations made one after another into one per ref (see {@link collapseVersions}), so a
   * burst of writes leaves one set of tree pages. Writers get the folded version.
   */
  close(): void {
    if (!this.treeEditsOnly) return
    const collapsed = collapseVersions(this.moves, this.objects)
    if (collapsed === undefined) return
    const { renamed } = collapsed
    this.moves = collapsed.moves
    this.changes = this.changes.map((change) => ({
      ...change,
      version: renamed(refOfChange(change), change.version),
    }))
    for (const outcome of this.outcomes) {
      if (!('result' in outcome)) continue
      const { ref } = outcome.pending.mutation
      const { result } = outcome
      if (typeof result === 'string') outcome.result = renamed(ref, result)
      else if (isVersioned(result))
        outcome.result = { ...result, version: renamed(ref, result.version) }
    }
  }

  /**
   * Answers every writer: with its result or its own error when the group committed, with
   * `failure` (the batch's error) for the successful ones when it did not.
   */
  settle(failure?: { error: unknown }): void {
    for (const outcome of this.outcomes) {
      if ('error' in outcome) outcome.pending.reject(outcome.error)
      else if (failure !== undefined) outcome.pending.reject(failure.error)
      else outcome.pending.resolve(outcome.result)
    }
  }
}
