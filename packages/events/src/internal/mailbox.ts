/**
 * A bounded single-consumer queue. When full, a push drops the oldest item (the consumer
 * fell behind and silently loses events, as the spec allows), so memory stays bounded and the
 * producer never waits.
 */
export interface Mailbox<T> {
  /** Adds an item, dropping the oldest one when full; ignored once closed. */
  push(item: T): void
  /**
   * Resolves with up to `max` items as soon as at least one is queued, or with an empty array
   * once closed. Items pushed in the same tick are handed over together. One caller at a time.
   */
  take(max?: number): Promise<T[]>
  /** Discards what is queued; the mailbox stays open. */
  clear(): void
  /** Discards what is queued and resolves a waiting `take` with an empty array. */
  close(): void
  readonly closed: boolean
  /** Items queued now. */
  readonly pending: number
  /** Items dropped because the mailbox was full. */
  readonly dropped: number
}

const INITIAL_SLOTS = 8

/** Creates a mailbox holding at most `capacity` items; its storage grows on demand. */
export function createMailbox<T>(capacity: number): Mailbox<T> {
  if (!Number.isSafeInteger(capacity) || capacity < 1)
    throw new RangeError(`queue size must be a positive integer, got ${capacity}`)
  let slots: (T | undefined)[] = new Array<T | undefined>(Math.min(INITIAL_SLOTS, capacity))
  let head = 0
  let size = 0
  let dropped = 0
  let closed = false
  let waiter: { resolve: (items: T[]) => void; max: number } | undefined
  let wakeScheduled = false

  const grow = () => {
    const next = new Array<T | undefined>(Math.min(slots.length * 2, capacity))
    for (let i = 0; i < size; i++) next[i] = slots[(head + i) % slots.length]
    slots = next
    head = 0
  }
  const drain = (max: number): T[] => {
    const count = Math.min(max, size)
    const out = new Array<T>(count)
    for (let i = 0; i < count; i++) {
      out[i] = slots[head] as T
      slots[head] = undefined
      head = (head + 1) % slots.length
    }
    size -= count
    return out
  }
  // Waking on a microtask lets a burst of synchronous pushes reach the consumer as one batch.
  const wake = () => {
    wakeScheduled = false
    if (waiter === undefined || size === 0) return
    const { resolve, max } = waiter
    waiter = undefined
    resolve(drain(max))
  }

  return {
    push(item) {
      if (closed) return
      if (size === slots.length && slots.length < capacity) grow()
      if (size === slots.length) {
        slots[head] = undefined
        head = (head + 1) % slots.length
        size--
        dropped++
      }
      slots[(head + size) % slots.length] = item
      size++
      if (waiter !== undefined && !wakeScheduled) {
        wakeScheduled = true
        queueMicrotask(wake)
      }
    },
    take(max = Number.POSITIVE_INFINITY) {
      if (!(max >= 1)) return Promise.reject(new RangeError(`max must be at least 1, got ${max}`))
      if (size > 0) return Promise.resolve(drain(max))
      if (closed) return Promise.resolve([])
      if (waiter !== undefined)
        return Promise.reject(new Error('take() is already waiting; a mailbox has one consumer'))
      return new Promise<T[]>((resolve) => {
        waiter = { resolve, max }
      })
    },
    clear() {
      slots = new Array<T | undefined>(Math.min(INITIAL_SLOTS, capacity))
      head = 0
      size = 0
    },
    close() {
      if (closed) return
      closed = true
      slots = []
      head = 0
      size = 0
      const pendingWaiter = waiter
      waiter = undefined
      pendingWaiter?.resolve([])
    },
    get closed() {
      return closed
    },
    get pending() {
      return size
    },
    get dropped() {
      return dropped
    },
  }
}
