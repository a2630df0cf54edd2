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
  /** Adds a record weighing `weight` (bytes, say; 0 when absent), evicting the oldest past a bound. */
  push(record: ReplayRecord<T>, weight?: number): void
  /** The highest sequence number pushed out of the buffer, 0 when none was. */
  readonly evictedThrough: number
  readonly size: number
  /** Total weight of the records held, never above the buffer's `maxWeight`. */
  readonly weight: number
  /** The record at `index`, 0 being the oldest. */
  at(index: number): ReplayRecord<T> | undefined
  /** Index of the first record whose seq is greater than `seq` (`size` when none is). */
  indexAfter(seq: number): number
}

/**
 * Creates a replay buffer of at most `capacity` records (0 keeps nothing) and at most
 * `maxWeight` in total: a count alone does not bound memory when one record can carry a
 * thousand paths.
 */
export function createReplayBuffer<T>(
  capacity: number,
  maxWeight = Number.POSITIVE_INFINITY,
): ReplayBuffer<T> {
  if (!Number.isSafeInteger(capacity) || capacity < 0)
    throw new RangeError(`replay size must be a non-negative integer, got ${capacity}`)
  if (!(maxWeight >= 0)) throw new RangeError(`replay bytes must be ≥ 0, got ${maxWeight}`)
  const records: (ReplayRecord<T> | undefined)[] = []
  const weights: number[] = []
  let head = 0
  let size = 0
  let total = 0
  let evictedThrough = 0

  const evictOldest = () => {
    evictedThrough = (records[head] as ReplayRecord<T>).seq
    total -= weights[head] as number
    records[head] = undefined
    head = (head + 1) % capacity
    size--
  }

  const at = (index: number) =>
    index >= 0 && index < size ? records[(head + index) % capacity] : undefined

  return {
    push(record, weight = 0) {
      if (capacity === 0) {
        evictedThrough = record.seq
        return
      }
      if (size === capacity) evictOldest()
      const slot = (head + size) % capacity
      records[slot] = record
      weights[slot] = weight
      size++
      total += weight
      while (total > maxWeight && size > 0) evictOldest()
    },
    get weight() {
      return total
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
