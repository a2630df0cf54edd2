import type { BusEventType, EventMap } from './event-types'

/**
 * Where a database-change event sits in the database's history: the version log position of
 * its change (`seq`, the same on every node sharing the database) and its index among the
 * events of that position (`part`: one change can split into several events, and one commit
 * can report several changes at one position). Positions order events in commit order.
 */
export interface ChangePosition {
  readonly seq: number
  readonly part: number
}

/** A database-change event as a {@link ChangeLog} replays it. */
export interface ChangeEvent<T extends BusEventType = BusEventType> {
  readonly type: T
  readonly payload: EventMap[T]
  readonly position: ChangePosition
}

/**
 * The database's change history as the bus ids and replays it. Change events published with
 * a position get the id `<id>.<seq>.<part>`, the same on every node; a `Last-Event-ID` of that
 * form resumes on any node: from the replay buffer when it holds it, else from {@link replay}.
 */
export interface ChangeLog {
  /** The database's id (1–32 of `0-9a-z`), the same on every node: ids of another database are unknown. */
  readonly id: string
  /**
   * The change events after `after`, in commit order, each with its position, up to the latest
   * commit. Rejects (or throws while iterating) when the history no longer holds them; the
   * subscriber then gets one `events_lost`. Stops when `signal` aborts.
   */
  replay(after: ChangePosition, signal: AbortSignal): AsyncIterable<ChangeEvent>
}

/** Orders two positions: negative when `a` comes first, 0 when equal. */
export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  return a.seq === b.seq ? a.part - b.part : a.seq - b.seq
}
