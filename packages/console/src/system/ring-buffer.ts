/**
 * A fixed-capacity buffer that keeps the newest `capacity` items: pushing onto a full buffer
 * drops the oldest. Charts keep their last minutes of samples in one, so a tab left open for
 * days holds no more than it shows.
 */
export class RingBuffer<T> {
  readonly #items: (T | undefined)[]
  #start = 0
  #size = 0

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, not ${capacity}`)
    }
    this.#items = new Array<T | undefined>(capacity)
  }

  /** How many items it holds. */
  get size(): number {
    return this.#size
  }

  /** Adds `item` as the newest, dropping the oldest when full. */
  push(item: T): void {
    const end = (this.#start + this.#size) % this.capacity
    this.#items[end] = item
    if (this.#size < this.capacity) this.#size++
    else this.#start = (this.#start + 1) % this.capacity
  }

  /** The items, oldest first. */
  toArray(): T[] {
    const out: T[] = []
    for (let i = 0; i < this.#size; i++)
      out.push(this.#items[(this.#start + i) % this.capacity] as T)
    return out
  }
}
