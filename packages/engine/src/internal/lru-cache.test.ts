import { describe, expect, it } from 'vitest'
import { LruCache } from './lru-cache'

describe('LruCache', () => {
  it('evicts the least recently used entries past its weight', () => {
    const cache = new LruCache<string, number>(100)
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, i, 10)
    expect(cache.size).toBe(10)
    cache.set('k10', 10, 10)
    expect(cache.get('k0')).toBeUndefined()
    expect(cache.get('k10')).toBe(10)
  })

  it('keeps an entry that keeps being used while others come and go', () => {
    const cache = new LruCache<string, number>(100)
    cache.set('hot', 1, 10)
    for (let i = 0; i < 1000; i++) {
      cache.set(`cold${i}`, i, 10)
      expect(cache.get('hot')).toBe(1)
    }
    expect(cache.size).toBe(10)
  })

  it('replaces a key and adjusts the weight', () => {
    const cache = new LruCache<string, string>(25)
    cache.set('a', 'x', 20)
    cache.set('a', 'y', 5)
    cache.set('b', 'z', 20)
    expect(cache.get('a')).toBe('y')
    expect(cache.get('b')).toBe('z')
  })

  it('never holds more weight than its budget, whatever comes in', () => {
    const cache = new LruCache<number, number>(1000)
    for (let i = 0; i < 10_000; i++) {
      cache.set(i % 700, i, (i * 37) % 300)
      if (i % 3 === 0) cache.get((i * 11) % 700)
      expect(cache.weight).toBeLessThanOrEqual(1000)
    }
    // One entry heavier than the whole budget is not kept at all.
    cache.set(-1, -1, 5000)
    expect(cache.get(-1)).toBeUndefined()
    expect(cache.weight).toBeLessThanOrEqual(1000)
  })
})
