import type { DatabaseChange } from '../changes/database-change'
import type { MetaOp } from '../meta/meta-store'
import type { WriteSet } from '../objects/object-store'
import type { HeadLogMark } from '../state/head-log-record'
import type { RefInfo, Tally } from '../state/ref-move'

/** What a mutation sees: roots of refs as of its turn, the group's object write set, the time. */
export interface MutationContext {
  /** Current root of the mutation's ref (an empty array for a mutation with no ref). */
  root: Uint8Array
  /** Current root of any ref, counting earlier mutations of the same group. */
  rootOf(ref: string): Uint8Array | undefined
  objects: WriteSet
  now: number
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
  /**
   * True when `apply` reads nothing but its context (roots, objects, time) and can run
   * again: it may then join a group formed while the previous one is still syncing.
   */
  speculative?: boolean
  apply(context: MutationContext): Promise<MutationOutcome<T>>
}
