/**
 * A least-recently-used cache bounded by the total `weight` of its values (bytes, say).
 * Map iteration order is insertion order, so re-inserting on access keeps the oldest first.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>()
  private total = 0

  constructor(private readonly maxWeight: number) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key)
    if (hit === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, hit)
    return hit.value
  }

  set(key: K, value: V, weight: number): void {
    const old = this.map.get(key)
    if (old !== undefined) {
      this.total -= old.weight
      this.map.delete(key)
    }
    this.map.set(key, { value, weight })
    this.total += weight
    for (const [k, v] of this.map) {
      if (this.total <= this.maxWeight) break
      this.map.delete(k)
      this.total -= v.weight
    }
  }

  get size(): number {
    return this.map.size
  }
}
