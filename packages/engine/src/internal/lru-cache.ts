/**
 * A cache bounded by the total `weight` of its values (bytes, say), evicting the least
 * recently used first. Map iteration order is insertion order, so refreshing an entry means
 * re-inserting it; to keep hits cheap, an entry is refreshed only once it has aged past a
 * quarter of the cache, which keeps hot entries safe from eviction all the same.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; weight: number; stamp: number }>()
  private total = 0
  private clock = 0

  constructor(private readonly maxWeight: number) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key)
    if (hit === undefined) return undefined
    if (this.clock - hit.stamp > this.map.size / 4) {
      this.map.delete(key)
      hit.stamp = this.clock++
      this.map.set(key, hit)
    }
    return hit.value
  }

  set(key: K, value: V, weight: number): void {
    const old = this.map.get(key)
    if (old !== undefined) {
      this.total -= old.weight
      this.map.delete(key)
    }
    this.map.set(key, { value, weight, stamp: this.clock++ })
    this.total += weight
    for (const [k, v] of this.map) {
      if (this.total <= this.maxWeight) break
      this.map.delete(k)
      this.total -= v.weight
    }
  }

  delete(key: K): void {
    const old = this.map.get(key)
    if (old === undefined) return
    this.total -= old.weight
    this.map.delete(key)
  }

  /** Total weight of the entries held, never above the budget. */
  get weight(): number {
    return this.total
  }

  get size(): number {
    return this.map.size
  }
}
