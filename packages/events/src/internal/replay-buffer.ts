/** One buffered event and its sequence number. */
export interface ReplayRecord<T> {
  readonly seq: number
  readonly item: T
}

/**
 * The last `capacity` events, oldest first, for `Last-Event-ID` replay. Sequence numbers are
 * increasing but may have gaps (ids minted for a single subscriber never enter the buffer), so
 * loss is judged by `evictedThrough`, not by counting.
 */
export interface ReplayBuffer<T> {
  push(record: ReplayRecord<T>): void
  /** The highest sequence number pushed out of the buffer, 0 when none was. */
  readonly evictedThrough: number
  readonly size: number
  /** The record at `index`, 0 being the oldest. */
  at(index: number): ReplayRecord<T> | undefined
  /** Index of the first record whose seq is greater than `seq` (`size` when none is). */
  indexAfter(seq: number): number
}

/** Creates a replay buffer of `capacity` records (0 keeps nothing). */
export function createReplayBuffer<T>(capacity: number): ReplayBuffer<T> {
  if (!Number.isSafeInteger(capacity) || capacity < 0)
    throw new RangeError(`replay size must be a non-negative integer, got ${capacity}`)
  const records: (ReplayRecord<T> | undefined)[] = []
  let head = 0
  let size = 0
  let evictedThrough = 0

  const at = (index: number) =>
    index >= 0 && index < size ? records[(head + index) % capacity] : undefined

  return {
    push(record) {
      if (capacity === 0) {
        evictedThrough = record.seq
        return
      }
      if (size < capacity) {
        records[(head + size) % capacity] = record
        size++
        return
      }
      evictedThrough = (records[head] as ReplayRecord<T>).seq
      records[head] = record
      head = (head + 1) % capacity
    },
    get evictedThrough() {
      return evictedThrough
    },
    get size() {
      return size
    },
    at,
    indexAfter(seq) {
      let lo = 0
      let hi = size
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if ((at(mid) as ReplayRecord<T>).seq <= seq) lo = mid + 1
        else hi = mid
      }
      return lo
    },
  }
}
