import type { ObjectReader } from '../objects/object-store'
import type { RecordedGroup } from './change-record'
import type { DatabaseChange, SequencedChange } from './database-change'
import { changesOfMove } from './move-changes'
import type { LoggedMove } from './move-changes'
import { atSequence } from './sequence-changes'

/** The version state in memory, as far as the change order reads it. */
export interface OrderedState {
  refs: ReadonlyMap<string, Uint8Array>
  infos: ReadonlyMap<string, { metadata?: Record<string, unknown> }>
  /** The version log sequence of its latest move. */
  logSeq: number
}

/** What ordering a shared database's changes needs from the core. */
export interface SharedChangeOrderDeps {
  objects: ObjectReader
  /**
   * The moves the logs hold from sequence `first` to `last`, in order, each with its HEAD log
   * cause and its recorded changes (trimmed ones are missing).
   */
  loggedMoves(first: number, last: number): AsyncIterable<SequencedMove>
  /** The state in memory now. */
  state(): OrderedState
  /** Hands changes to the listeners, synchronously. */
  emit(changes: readonly SequencedChange[]): void
  /** True while anyone listens: with nobody listening, other nodes' moves are not read. */
  listening(): boolean
  now(): number
}

/** A move of the version log with its sequence. */
export interface SequencedMove {
  seq: number
  move: LoggedMove
  /**
   * The changes its commit recorded with it; absent when none were (too many, or written
   * before changes were recorded): then the move is reported as its diff.
   */
  recorded?: DatabaseChange[]
}

/** A local group whose batch committed: its moves hold sequences `first`..`last`. */
interface LocalGroup {
  first: number
  last: number
  moves: readonly LoggedMove[]
  /** The group's recorded changes (those of `diffed` sequences excepted), in order. */
  changes: readonly SequencedChange[]
  /** Sequences reported as the diff of their move, as other nodes report them. */
  diffed: readonly number[]
}

/** A local batch written but not yet settled: its moves would hold `first`..`last`. */
interface InFlight {
  first: number
  last: number
  settled: Promise<void>
  settle(): void
}

/** Failures of a catch-up at one sequence before the order gives up on those moves. */
const CATCH_UP_ATTEMPTS = 3
const RETRY_MS = 1000

/**
 * The change feed of a shared database, in version log order: this node's groups as they
 * commit, and the moves of other nodes that reloads bring in, read from the version log and
 * reported as their commit recorded them (so every node reports the same changes), or as
 * {@link changesOfMove} builds them when no record says (too many entries, older commits);
 * this node's sequences past the record's limit are diffed alike. A cursor (the last
 * sequence reported) makes each move reported once: a local group whose moves a reload
 * already installed is reported once, at its place; a move read while an earlier one is
 * still being diffed waits its turn.
 * A local batch in flight holds its sequences until it settles, since only then is it known
 * whether they are this node's (reported with the group's own changes) or another node's.
 *
 * When the log no longer holds the moves after the cursor (trimmed past it), the order
 * reports the net change instead: for each ref, from the version this node last reported to
 * the one in memory (a `DatabaseChange` has no way to say "some moves are unknown").
 */
export class SharedChangeOrder {
  #cursor: number
  /** Refs as of the cursor (for a net change over a gap). */
  #known: Map<string, Uint8Array>
  #target: number
  readonly #locals = new Map<number, LocalGroup>()
  #writing: { first: number; last: number } | undefined
  #inFlight: InFlight | undefined
  #running: Promise<void> | undefined
  #again = false
  #failures = 0
  #retry: ReturnType<typeof setTimeout> | undefined
  #closed = false

  constructor(private readonly deps: SharedChangeOrderDeps) {
    const state = deps.state()
    this.#cursor = state.logSeq
    this.#target = state.logSeq
    this.#known = new Map(state.refs)
  }

  /** The sequence of the latest move reported. */
  get cursor(): number {
    return this.#cursor
  }

  /** A local group's moves are about to be written at `first` and on (its version log ops). */
  writing(first: number, count: number): void {
    this.#writing = count > 0 ? { first, last: first + count - 1 } : undefined
  }

  /**
   * A batch is being written: when it carries the moves {@link writing} announced, their
   * sequences are held until it settles.
   */
  track(batch: Promise<void>): void {
    const writing = this.#writing
    this.#writing = undefined
    if (writing === undefined) return
    let settle!: () => void
    const settled = new Promise<void>((resolve) => (settle = resolve))
    const flight: InFlight = { ...writing, settled, settle }
    this.#inFlight = flight
    const done = (): void => {
      if (this.#inFlight === flight) this.#inFlight = undefined
      flight.settle()
    }
    // Committed: the committer reports the group in the same turn; after it, the sequences
    // are released whatever happened.
    batch.then(() => setImmediate(done), done)
  }

  /**
   * A local group committed: reports its changes (as recorded in its batch, whose moves took
   * the sequences {@link writing} announced) at its place in the order.
   */
  committed(moves: readonly LoggedMove[], recorded: RecordedGroup): void {
    const flight = this.#inFlight
    if (moves.length === 0 || flight === undefined) {
      // No sequences (nothing to order by): reported at once.
      this.deps.emit(recorded.changes)
      return
    }
    this.#inFlight = undefined
    flight.settle()
    const diffed = recorded.diffed
    const changes =
      diffed.length === 0
        ? recorded.changes
        : recorded.changes.filter((change) => !diffed.includes(change.seq))
    const group: LocalGroup = { first: flight.first, last: flight.last, moves, changes, diffed }
    // Already covered by a net change over a gap.
    if (group.last <= this.#cursor) return
    this.#target = Math.max(this.#target, group.last)
    if (this.#running === undefined && group.first === this.#cursor + 1 && diffed.length === 0)
      this.report(group)
    else {
      this.#locals.set(group.first, group)
      this.kick()
    }
  }

  /** A reload installed a state whose latest move is `logSeq`: reports the moves up to it. */
  installed(logSeq: number): void {
    if (logSeq <= this.#target) return
    this.#target = logSeq
    // Not inside the reload's install step: listeners run after it.
    queueMicrotask(() => this.kick())
  }

  /** Waits for the moves known so far to be reported, then stops. */
  async close(): Promise<void> {
    clearTimeout(this.#retry)
    while (this.#running !== undefined) await this.#running
    this.#closed = true
  }

  private kick(): void {
    if (this.#closed) return
    if (this.#running !== undefined) {
      this.#again = true
      return
    }
    const run = this.run()
    this.#running = run
    void run.finally(() => {
      this.#running = undefined
      if (this.#again) {
        this.#again = false
        this.kick()
      }
    })
  }

  private async run(): Promise<void> {
    try {
      while (!this.#closed && this.#cursor < this.#target) {
        const next = this.#cursor + 1
        const local = this.#locals.get(next)
        if (local !== undefined) {
          if (local.diffed.length === 0) this.report(local)
          else await this.reportDiffed(local)
          continue
        }
        const flight = this.#inFlight
        if (flight !== undefined && flight.first === next) {
          await flight.settled
          continue
        }
        if (!this.deps.listening()) {
          await this.skip(false)
          continue
        }
        let end = this.#target
        if (flight !== undefined && flight.first > next) end = Math.min(end, flight.first - 1)
        for (const first of this.#locals.keys()) if (first > next) end = Math.min(end, first - 1)
        await this.catchUp(next, end)
      }
      this.#failures = 0
    } catch {
      // Read again later; after a few failures at one place, give up on those moves.
      if (++this.#failures < CATCH_UP_ATTEMPTS) {
        this.#retry = setTimeout(() => this.kick(), RETRY_MS)
        this.#retry.unref()
      } else {
        this.#failures = 0
        await this.skip(true).catch(() => this.skip(false))
      }
    }
  }

  /** Reports a local group and moves the cursor past it. */
  private report(group: LocalGroup): void {
    this.#locals.delete(group.first)
    this.advance(group.moves, group.last)
    this.deps.emit(group.changes)
  }

  /** Reports a local group with sequences too large to record: those as their moves' diffs. */
  private async reportDiffed(group: LocalGroup): Promise<void> {
    const changes = [...group.changes]
    for (const seq of group.diffed) {
      const move = group.moves[seq - group.first] as LoggedMove
      for (const change of atSequence(await changesOfMove(this.deps.objects, move), seq))
        changes.push(change)
      if (this.#closed) return
    }
    // Stable: the recorded changes keep their order within a sequence.
    changes.sort((x, y) => x.seq - y.seq)
    this.report({ ...group, changes })
  }

  private advance(moves: readonly { ref: string; to: Uint8Array | null }[], seq: number): void {
    for (const move of moves)
      if (move.to === null) this.#known.delete(move.ref)
      else this.#known.set(move.ref, move.to)
    this.#cursor = seq
  }

  /** Reports other nodes' moves `next`..`end` from the logs, one at a time. */
  private async catchUp(next: number, end: number): Promise<void> {
    let expected = next
    for await (const { seq, move, recorded } of this.deps.loggedMoves(next, end)) {
      if (this.#closed) return
      // Trimmed past the cursor: these moves are gone.
      if (seq !== expected) break
      if (move.from === null && move.to !== null) {
        const info = this.deps.state().infos.get(move.ref)
        if (info !== undefined) move.info = info
      }
      const changes = recorded ?? (await changesOfMove(this.deps.objects, move))
      if (this.#closed) return
      this.advance([move], seq)
      this.deps.emit(atSequence(changes, seq))
      expected++
    }
    if (expected <= end) await this.skip(true)
  }

  /**
   * Jumps to the state in memory once no local batch is in flight: with `report`, as the net
   * change of each ref since the cursor; without, silently (nobody listens).
   */
  private async skip(report: boolean): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight.settled
    const live = this.deps.state()
    if (live.logSeq <= this.#cursor) {
      this.#target = this.#cursor
      return
    }
    // Copies: the state in memory changes in place while the diffs run.
    const refs = new Map(live.refs)
    const { infos, logSeq } = { infos: new Map(live.infos), logSeq: live.logSeq }
    const changes: DatabaseChange[] = []
    if (report) {
      const at = this.deps.now()
      for (const [ref, to] of refs) {
        const move: LoggedMove = { ref, from: this.#known.get(ref) ?? null, to, at }
        const info = infos.get(ref)
        if (info !== undefined) move.info = info
        for (const change of await changesOfMove(this.deps.objects, move)) changes.push(change)
      }
    }
    // Local groups up to there are in the net change.
    for (const first of [...this.#locals.keys()]) if (first <= logSeq) this.#locals.delete(first)
    this.#known = refs
    this.#cursor = logSeq
    this.#target = Math.max(this.#target, logSeq)
    if (!this.#closed) this.deps.emit(atSequence(changes, logSeq))
  }
}
