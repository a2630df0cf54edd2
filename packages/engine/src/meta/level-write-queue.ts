import { isEngineError } from '../errors'

/** One caller's batch as the queue holds it: its ops and the guards they depend on. */
export interface QueuedBatch<Op, Guard> {
  readonly ops: readonly Op[]
  /** Absent for an unguarded batch (the common case, which costs no read). */
  readonly guards: readonly Guard[] | undefined
}

/** One caller's batch, waiting for its write. */
interface Pending<Op, Guard> extends QueuedBatch<Op, Guard> {
  sync: boolean
  resolve(): void
  reject(err: unknown): void
}

/** What a {@link LevelWriteQueue} writes with. */
export interface LevelWriteQueueOptions<Op, Guard = never> {
  /** Writes the ops of every batch in `groups` as one atomic batch. */
  write(groups: readonly (readonly Op[])[], sync: boolean): Promise<void>
  /**
   * Decides which batches of a group to write, when at least one of them has guards: reads
   * the store as the previous group left it and walks the group in order, each admitted
   * batch's ops applying before the next batch's guards are checked. Returns, per batch, the
   * error to fail it with, or `undefined` to write it. Nothing is written meanwhile, so no
   * other write can slip between the check and the write.
   */
  admit?(group: readonly QueuedBatch<Op, Guard>[]): Promise<readonly unknown[]>
  /** Turns a storage failure into the error callers see (an `EngineError`). */
  wrap(err: unknown): unknown
  /**
   * Run before the next write once a write failed with `INSUFFICIENT_STORAGE` (see
   * {@link createLevelWriteQueue}); throws when no new log could be started.
   */
  startNewLog?: () => Promise<void>
}

/** Serialised batch writes; see {@link createLevelWriteQueue}. */
export interface LevelWriteQueue<Op, Guard = never> {
  /**
   * Resolves once `ops` are written (durably with `sync`), all or none; with `guards`, only
   * if `admit` lets the batch through (else rejects with what it returned).
   */
  write(ops: readonly Op[], sync: boolean, guards?: readonly Guard[]): Promise<void>
}

/**
 * One LevelDB write at a time, batches arriving meanwhile grouped into the next one (the
 * group commit LevelDB does itself, kept here so no write is ever in flight behind a failed
 * one).
 *
 * Why: when the disk is full LevelDB's log append can fail half-way, leaving a torn record
 * while its writer believes the whole record was written; every record appended after it is
 * misaligned and dropped on recovery, so writes acknowledged after space was freed would be
 * lost at the next restart. After such a failure `startNewLog` runs before the next write, so
 * nothing is ever appended to the damaged log; until it succeeds, writes keep failing.
 *
 * Guarded batches are checked by `admit` in the queue's turn, just before their group's
 * write: a batch whose guards fail is left out and the rest of its group is still written.
 */
export function createLevelWriteQueue<Op, Guard = never>(
  options: LevelWriteQueueOptions<Op, Guard>,
): LevelWriteQueue<Op, Guard> {
  const queue: Pending<Op, Guard>[] = []
  let draining = false
  let logDamaged = false

  async function writeGroup(group: Pending<Op, Guard>[]): Promise<void> {
    let admitted = group
    try {
      if (logDamaged && options.startNewLog !== undefined) {
        await options.startNewLog()
        logDamaged = false
      }
      if (group.some((p) => p.guards !== undefined)) admitted = await admit(group)
      if (admitted.length > 0) {
        await options.write(
          admitted.map((p) => p.ops),
          admitted.some((p) => p.sync),
        )
      }
    } catch (err) {
      const wrapped = options.wrap(err)
      if (isEngineError(wrapped, 'INSUFFICIENT_STORAGE')) logDamaged = true
      for (const pending of admitted) pending.reject(wrapped)
      return
    }
    for (const pending of admitted) pending.resolve()
  }

  /** Fails the batches whose guards do not hold (or could not be read); returns the others. */
  async function admit(group: Pending<Op, Guard>[]): Promise<Pending<Op, Guard>[]> {
    let verdicts: readonly unknown[]
    try {
      if (options.admit === undefined) throw new Error('this queue takes no guards')
      verdicts = await options.admit(group)
    } catch (err) {
      // The unguarded batches of the group do not depend on the read that failed.
      const wrapped = options.wrap(err)
      verdicts = group.map((p) => (p.guards === undefined ? undefined : wrapped))
    }
    const admitted: Pending<Op, Guard>[] = []
    group.forEach((pending, i) => {
      if (verdicts[i] === undefined) admitted.push(pending)
      else pending.reject(verdicts[i])
    })
    return admitted
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) await writeGroup(queue.splice(0, queue.length))
    draining = false
  }

  return {
    write(ops, sync, guards) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ ops, guards, sync, resolve, reject })
        if (!draining) {
          draining = true
          void drain()
        }
      })
    },
  }
}
