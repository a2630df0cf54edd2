/** A reproducible stream of random numbers (mulberry32), so a failing sequence fails again. */
export interface SeededRandom {
  /** A number in [0, 1). */
  next(): number
  /** One element of `items`, which must not be empty. */
  pick<T>(items: readonly T[]): T
}

/** Makes a {@link SeededRandom} from a 32-bit seed. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick needs a non-empty list')
      return items[Math.floor(next() * items.length)] as T
    },
  }
}
