import { isEngineError } from '../errors'

/** One caller's batch, waiting for its write. */
interface Pending<Op> {
  ops: readonly Op[]
  sync: boolean
  resolve(): void
  reject(err: unknown): void
}

/** What a {@link LevelWriteQueue} writes with. */
export interface LevelWriteQueueOptions<Op> {
  /** Writes the ops of every batch in `groups` as one atomic batch. */
  write(groups: readonly (readonly Op[])[], sync: boolean): Promise<void>
  /** Turns a storage failure into the error callers see (an `EngineError`). */
  wrap(err: unknown): unknown
  /**
   * Run before the next write once a write failed with `INSUFFICIENT_STORAGE` (see
   * {@link createLevelWriteQueue}); throws when no new log could be started.
   */
  startNewLog?: () => Promise<void>
}

/** Serialised batch writes; see {@link createLevelWriteQueue}. */
export interface LevelWriteQueue<Op> {
  /** Resolves once `ops` are written (durably with `sync`), all or none. */
  write(ops: readonly Op[], sync: boolean): Promise<void>
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
 */
export function createLevelWriteQueue<Op>(
  options: LevelWriteQueueOptions<Op>,
): LevelWriteQueue<Op> {
  const queue: Pending<Op>[] = []
  let draining = false
  let logDamaged = false

  async function writeGroup(group: Pending<Op>[]): Promise<void> {
    try {
      if (logDamaged && options.startNewLog !== undefined) {
        await options.startNewLog()
        logDamaged = false
      }
      await options.write(
        group.map((p) => p.ops),
        group.some((p) => p.sync),
      )
    } catch (err) {
      const wrapped = options.wrap(err)
      if (isEngineError(wrapped, 'INSUFFICIENT_STORAGE')) logDamaged = true
      for (const pending of group) pending.reject(wrapped)
      return
    }
    for (const pending of group) pending.resolve()
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) await writeGroup(queue.splice(0, queue.length))
    draining = false
  }

  return {
    write(ops, sync) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ ops, sync, resolve, reject })
        if (!draining) {
          draining = true
          void drain()
        }
      })
    },
  }
}
