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

const INITIAL_SLOTS = 4
const NO_SLOTS: never[] = []

// A class rather than closures: thousands of subscribers each hold one, and methods on a
// prototype cost nothing per instance.
class RingMailbox<T> implements Mailbox<T> {
  readonly #capacity: number
  #slots: (T | undefined)[] = NO_SLOTS
  #head = 0
  #size = 0
  #dropped = 0
  #closed = false
  #waiter: ((items: T[]) => void) | undefined
  #waiterMax = 0
  #wakeScheduled = false

  constructor(capacity: number) {
    this.#capacity = capacity
  }

  get closed() {
    return this.#closed
  }

  get pending() {
    return this.#size
  }

  get dropped() {
    return this.#dropped
  }

  push(item: T): void {
    if (this.#closed) return
    const length = this.#slots.length
    if (this.#size === length && length < this.#capacity) this.#grow()
    if (this.#size === this.#slots.length) {
      this.#slots[this.#head] = undefined
      this.#head = (this.#head + 1) % this.#slots.length
      this.#size--
      this.#dropped++
    }
    this.#slots[(this.#head + this.#size) % this.#slots.length] = item
    this.#size++
    if (this.#waiter !== undefined && !this.#wakeScheduled) {
      this.#wakeScheduled = true
      // Waking on a microtask lets a burst of synchronous pushes reach the consumer as one batch.
      queueMicrotask(() => this.#wake())
    }
  }

  take(max = Number.POSITIVE_INFINITY): Promise<T[]> {
    if (!(max >= 1)) return Promise.reject(new RangeError(`max must be at least 1, got ${max}`))
    if (this.#size > 0) return Promise.resolve(this.#drain(max))
    if (this.#closed) return Promise.resolve([])
    if (this.#waiter !== undefined)
      return Promise.reject(new Error('take() is already waiting; a mailbox has one consumer'))
    return new Promise<T[]>((resolve) => {
      this.#waiter = resolve
      this.#waiterMax = max
    })
  }

  clear(): void {
    this.#slots = NO_SLOTS
    this.#head = 0
    this.#size = 0
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.clear()
    const waiter = this.#waiter
    this.#waiter = undefined
    waiter?.([])
  }

  #grow(): void {
    const length = this.#slots.length
    const next = new Array<T | undefined>(
      Math.min(Math.max(INITIAL_SLOTS, length * 2), this.#capacity),
    )
    for (let i = 0; i < this.#size; i++) next[i] = this.#slots[(this.#head + i) % length]
    this.#slots = next
    this.#head = 0
  }

  #drain(max: number): T[] {
    const count = Math.min(max, this.#size)
    const out = new Array<T>(count)
    const slots = this.#slots
    for (let i = 0; i < count; i++) {
      out[i] = slots[this.#head] as T
      slots[this.#head] = undefined
      this.#head = (this.#head + 1) % slots.length
    }
    this.#size -= count
    return out
  }

  #wake(): void {
    this.#wakeScheduled = false
    const waiter = this.#waiter
    if (waiter === undefined || this.#size === 0) return
    this.#waiter = undefined
    waiter(this.#drain(this.#waiterMax))
  }
}

/** Creates a mailbox holding at most `capacity` items; its storage grows on demand. */
export function createMailbox<T>(capacity: number): Mailbox<T> {
  if (!Number.isSafeInteger(capacity) || capacity < 1)
    throw new RangeError(`queue size must be a positive integer, got ${capacity}`)
  return new RingMailbox<T>(capacity)
}
